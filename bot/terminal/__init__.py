"""Kortbord's terminal table (``kortbord play``): an offline runner of one match, one person
against computer players, driven straight through the games' contract. It is not a face of the
session manager: nothing is stored, there are no deadlines and no other members, and it keeps its
own reaction window (Hej knekt) on its own clock. It imports the core's catalogs, text and
thinking; the core never imports it.
"""
