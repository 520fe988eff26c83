/**
 * Strict JSON Schemas of the Kubernetes API objects, made offline from the `kubernetes-types` package (the API's
 * OpenAPI definitions of one Kubernetes release as TypeScript declarations; the version is pinned in
 * infra/package.json). Every object schema lists its fields and refuses any other (`additionalProperties: false`,
 * as `kubectl --validate=strict` and the "-strict" flavour of the kubernetes-json-schema project do), marks the
 * fields the API requires, and pins `apiVersion` and `kind` to the type's own. A misspelled field fails.
 *
 * The declarations are read as syntax only (no type checker): interfaces, their property signatures, and the few
 * type aliases the API has (Quantity, Time, MicroTime).
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import ts from "typescript";

type Schema = Record<string, unknown>;

/** The API objects' types differ from their declarations here: a Quantity is a string or a number in YAML. */
const ALIASES: Record<string, Schema> = {
  "api.resource.Quantity": { type: ["string", "number"] },
  "meta.v1.Time": { type: "string" },
  "meta.v1.MicroTime": { type: "string" },
  // Any JSON (an extension's own object).
  "runtime.RawExtension": {},
};

/** A definition's key: its module and name, `apps.v1.Deployment` (no "/" or "#", which a $ref would have to escape). */
function keyOf(module: string, name: string): string {
  return `${module.replace(/\//g, ".")}.${name}`;
}

export function kubernetesTypesDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve("kubernetes-types/package.json"));
}

export function kubernetesTypesVersion(): string {
  return (JSON.parse(readFileSync(path.join(kubernetesTypesDir(), "package.json"), "utf8")) as { version: string }).version;
}

function declarationFiles(dir: string, prefix = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = path.posix.join(prefix, entry.name);
    if (entry.isDirectory()) files.push(...declarationFiles(dir, relative));
    else if (entry.name.endsWith(".d.ts")) files.push(relative.slice(0, -".d.ts".length));
  }
  return files;
}

/** All definitions, keyed `<module>.<Name>` (e.g. `apps.v1.Deployment`), as JSON Schemas referring to each other. */
export function kubernetesDefinitions(dir = kubernetesTypesDir()): Record<string, Schema> {
  const definitions: Record<string, Schema> = {};
  for (const module of declarationFiles(dir)) {
    const source = ts.createSourceFile(`${module}.d.ts`, readFileSync(path.join(dir, `${module}.d.ts`), "utf8"), ts.ScriptTarget.Latest);
    const imported = new Map<string, string>();
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !statement.importClause?.namedBindings) continue;
      const from = path.posix.join(path.posix.dirname(module), (statement.moduleSpecifier as ts.StringLiteral).text);
      const bindings = statement.importClause.namedBindings;
      if (ts.isNamedImports(bindings)) for (const element of bindings.elements) imported.set(element.name.text, from);
    }
    const refName = (name: string) => keyOf(imported.get(name) ?? module, name);
    const toSchema = (node: ts.TypeNode): Schema => typeSchema(node, refName);
    for (const statement of source.statements) {
      if (ts.isInterfaceDeclaration(statement)) definitions[keyOf(module, statement.name.text)] = objectSchema(statement.members, toSchema);
      else if (ts.isTypeAliasDeclaration(statement)) definitions[keyOf(module, statement.name.text)] = toSchema(statement.type);
    }
  }
  return { ...definitions, ...ALIASES };
}

function objectSchema(members: ts.NodeArray<ts.TypeElement>, toSchema: (node: ts.TypeNode) => Schema): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  let additional: Schema | false = false;
  for (const member of members) {
    if (ts.isPropertySignature(member) && member.type) {
      const name = (member.name as ts.Identifier | ts.StringLiteral).text;
      properties[name] = toSchema(member.type);
      if (!member.questionToken) required.push(name);
    } else if (ts.isIndexSignatureDeclaration(member) && member.type) {
      additional = toSchema(member.type);
    }
  }
  if (members.length === 0) return { type: "object" };
  return { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: additional };
}

function typeSchema(node: ts.TypeNode, refName: (name: string) => string): Schema {
  const recurse = (child: ts.TypeNode) => typeSchema(child, refName);
  switch (node.kind) {
    case ts.SyntaxKind.StringKeyword:
      return { type: "string" };
    case ts.SyntaxKind.NumberKeyword:
      return { type: "number" };
    case ts.SyntaxKind.BooleanKeyword:
      return { type: "boolean" };
    case ts.SyntaxKind.AnyKeyword:
    case ts.SyntaxKind.UnknownKeyword:
    case ts.SyntaxKind.ObjectKeyword:
      return {};
  }
  if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) return { const: node.literal.text };
  if (ts.isArrayTypeNode(node)) return { type: "array", items: recurse(node.elementType) };
  if (ts.isUnionTypeNode(node)) return { anyOf: node.types.map(recurse) };
  if (ts.isParenthesizedTypeNode(node)) return recurse(node.type);
  if (ts.isTypeLiteralNode(node)) return objectSchema(node.members, recurse);
  if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
    const name = node.typeName.text;
    if (name === "Array" && node.typeArguments?.length === 1) return { type: "array", items: recurse(node.typeArguments[0]) };
    return { $ref: `#/definitions/${refName(name)}` };
  }
  throw new Error(`kubernetes-types: a type this reader does not know: ${ts.SyntaxKind[node.kind]}`);
}

/** `apps/v1` + `Deployment` -> the definition key `apps.v1.Deployment`; the core group is `core.v1`. */
export function definitionKey(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["core", apiVersion];
  return keyOf(`${group.replace(/\.k8s\.io$/, "")}/${version}`, kind);
}
