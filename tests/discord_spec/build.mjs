// Discord's OpenAPI specification, as the pinned npm package discord-api-spec ships it (Zod
// schemas of every object, TypeScript types of every operation), turned into one JSON file the
// contract test reads (tests/discord_requests.py): build/discord-requests.json holds
//   "version"     the package's version,
//   "operations"  {"METHOD /path/{template}": JSON Schema of its request body, or null for none},
//   "$defs"       every schema of the spec by name, which the bodies reference ("#/$defs/Name").
// ./dev runs it after `npm ci`, when the file is older than the lock file or this script.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import * as z from "zod";
import * as spec from "discord-api-spec/zod";

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, "node_modules", "discord-api-spec");
const version = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version;

// Every schema of the spec, by name, with references between them kept as references.
const registry = z.registry();
for (const [name, schema] of Object.entries(spec)) {
  if (name.endsWith("Schema") && schema && typeof schema === "object" && "_zod" in schema) {
    registry.add(schema, { id: name.slice(0, -"Schema".length) });
  }
}
const converted = z.toJSONSchema(registry, {
  target: "draft-2020-12",
  io: "input",
  unrepresentable: "any",
  uri: (id) => `#/$defs/${id}`,
});
const defs = {};
for (const [name, schema] of Object.entries(converted.schemas)) {
  delete schema.$schema;
  delete schema.$id;
  defs[name] = schema;
}

// The operations: Paths[path][method].requestBody of the TypeScript types, as JSON Schema.
const source = readFileSync(join(packageDir, "build", "discord-api-spec.ts"), "utf8");
const file = ts.createSourceFile("discord-api-spec.ts", source, ts.ScriptTarget.Latest, true);

function schemaOf(node) {
  switch (node.kind) {
    case ts.SyntaxKind.TypeReference: {
      const name = node.typeName.getText(file);
      if (!(name in defs)) throw new Error(`no schema named ${name} in the spec`);
      return { $ref: `#/$defs/${name}` };
    }
    case ts.SyntaxKind.ArrayType:
      return { type: "array", items: schemaOf(node.elementType) };
    case ts.SyntaxKind.UnionType:
      return { anyOf: node.types.map(schemaOf) };
    case ts.SyntaxKind.ParenthesizedType:
      return schemaOf(node.type);
    case ts.SyntaxKind.LiteralType:
      if (node.literal.kind === ts.SyntaxKind.NullKeyword) return { type: "null" };
      if (ts.isStringLiteral(node.literal)) return { const: node.literal.text };
      if (ts.isNumericLiteral(node.literal)) return { const: Number(node.literal.text) };
      if (node.literal.kind === ts.SyntaxKind.TrueKeyword) return { const: true };
      if (node.literal.kind === ts.SyntaxKind.FalseKeyword) return { const: false };
      break;
    case ts.SyntaxKind.StringKeyword:
      return { type: "string" };
    case ts.SyntaxKind.NumberKeyword:
      return { type: "number" };
    case ts.SyntaxKind.BooleanKeyword:
      return { type: "boolean" };
    case ts.SyntaxKind.NullKeyword:
      return { type: "null" };
    case ts.SyntaxKind.UnknownKeyword:
    case ts.SyntaxKind.AnyKeyword:
      return {};
    case ts.SyntaxKind.TypeLiteral: {
      const properties = {};
      const required = [];
      let additional;
      for (const member of node.members) {
        if (ts.isPropertySignature(member)) {
          const name = member.name.getText(file).replace(/^"|"$/g, "");
          properties[name] = member.type ? schemaOf(member.type) : {};
          if (!member.questionToken) required.push(name);
        } else if (ts.isIndexSignatureDeclaration(member)) {
          additional = schemaOf(member.type);
        }
      }
      const object = { type: "object", properties };
      if (required.length) object.required = required;
      if (additional !== undefined) object.additionalProperties = additional;
      return object;
    }
  }
  throw new Error(`a request body type the build does not know: ${node.getText(file)}`);
}

const operations = {};
const paths = file.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === "Paths");
for (const pathMember of paths.members) {
  const path = pathMember.name.text;
  for (const methodMember of pathMember.type.members) {
    const method = methodMember.name.getText(file).toUpperCase();
    const body = methodMember.type.members.find((m) => m.name?.getText(file) === "requestBody");
    const none = !body || body.type.kind === ts.SyntaxKind.UndefinedKeyword;
    operations[`${method} ${path}`] = none ? null : schemaOf(body.type);
  }
}

mkdirSync(join(here, "build"), { recursive: true });
const out = join(here, "build", "discord-requests.json");
writeFileSync(out, JSON.stringify({ version, operations, $defs: defs }));
console.error(
  `discord-api-spec ${version}: ${Object.keys(operations).length} operations,` +
    ` ${Object.keys(defs).length} schemas -> ${out}`,
);
