"""The Discord face's messages with controls: the table message's buttons (``table``, with its
button's face in ``table_button``), the hand panel (``panel``: what it offers in ``offers``, its
controls arranged by ``layout``), the web table's launch button (``activity``) and the answer to
clicks discord.py would drop (``dropped``). The table's views open panels; a panel never imports
the table's views."""
