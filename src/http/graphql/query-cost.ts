/**
 * The estimated cost of a GraphQL operation, from its parsed and validated document, before anything runs (issue 33:
 * one request aliasing `webhooks → deliveries` 50 times held the event loop for a minute). A pure function of the
 * schema, the document and the variables, in a file of its own so that it is tested alone and the route
 * (graphql-route.ts) stays thin: the route refuses what costs more than its budget and charges the cost to the
 * organization's per-minute allowance.
 *
 * The cost counts every field once per object it is resolved on, so it grows with the work and the answer's size:
 * - a list multiplies everything selected under it by its size: the field's own `first` (or `last`, `limit`)
 *   argument; for a connection (a field with such an argument that returns one object), the lists directly in it
 *   (`edges`) take the connection's page size; else the size given in `listSizes` (`Type.field`); introspection
 *   lists take the schema's own counts (how many types, fields per type on average, ...); any other list
 *   `maxPageSize`. An absent page argument counts as its default (the argument's, else `defaultPageSize`); a larger
 *   one counts as `maxPageSize` (the resolvers refuse it anyway);
 * - each item of a list given as an argument counts one (`addWebhookSubscriptions` of 1,000 domains: 1,000);
 * - every alias is a field of its own, and every fragment spread counts its fragment again where it is spread
 *   (memoized per fragment, so spreads nested in spreads cost linear time to count, however large the total);
 * - `@skip` and `@include` are ignored and fields the executor would merge (the same name twice) count twice: the
 *   estimate is an upper bound.
 * `rootFields` is the number of fields at the top of the operation (aliases and `__typename` included), fragments
 * expanded, for the route's cap on root fields.
 */
import {
  getNamedType,
  getNullableType,
  getOperationAST,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  isUnionType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

export interface QueryCostOptions {
  /** The request's variables (a page size may be a variable). */
  variables?: Readonly<Record<string, unknown>> | null;
  operationName?: string | null;
  /** A page argument's value when it is absent (and its schema declares no default). */
  defaultPageSize: number;
  /** The most a page argument counts for, and the size of a list nothing else sizes. */
  maxPageSize: number;
  /** Sizes of lists whose bound is known, by `Type.field` (e.g. `WebhookDelivery.attempts`: 15). */
  listSizes?: Readonly<Record<string, number>>;
  /** The arguments that size a list or a connection's page. Default: `first`, `last`, `limit`. */
  pageArguments?: readonly string[];
}

export interface QueryCost {
  /** Fields × the sizes of the lists they are under (see above); 0 when the document has no such operation. */
  cost: number;
  /** Fields at the top of the operation, aliases included. */
  rootFields: number;
  /**
   * Fields on the longest path down the operation (`{ webhooks { edges { cursor } } }`: 3), fragments expanded, without
   * introspection (`__schema`, `__type` and what is under them): the schema's type references nest deeper than data
   * may, and their work is bounded by the cost.
   */
  depth: number;
}

const PAGE_ARGUMENTS = ['first', 'last', 'limit'] as const;

/**
 * The cost of the operation `options.operationName` (or the only one) of a validated `document`. `schema` must be
 * built by the graphql this module imports (the ES module): graphql's type checks (`isListType`, ...) do not
 * recognize types built by another copy, such as the CommonJS one mercurius loads.
 */
export function queryCost(schema: GraphQLSchema, document: DocumentNode, options: QueryCostOptions): QueryCost {
  const operation = getOperationAST(document, options.operationName ?? undefined);
  const rootType = operation ? schema.getRootType(operation.operation) : undefined;
  if (!operation || !rootType) return { cost: 0, rootFields: 0, depth: 0 };
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const walker = new CostWalker(schema, fragments, operation, options);
  const { cost, depth } = walker.selections(rootType, operation.selectionSet, null);
  return { cost, rootFields: walker.fieldCount(operation.selectionSet), depth };
}

/** The cost of resolving a selection set once, and its depth. */
interface Measure {
  cost: number;
  depth: number;
}

class CostWalker {
  /** Fragments measured, by `name:page` (the page a connection hands its lists), each walked once. */
  private readonly fragmentMeasures = new Map<string, Measure>();
  private readonly listSizes: Readonly<Record<string, number>>;
  private readonly pageArguments: readonly string[];

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly operation: OperationDefinitionNode,
    private readonly options: QueryCostOptions,
  ) {
    this.listSizes = { ...introspectionListSizes(schema), ...options.listSizes };
    this.pageArguments = options.pageArguments ?? PAGE_ARGUMENTS;
  }

  /** Resolving `selectionSet` once on an object of `type`; `page` sizes its lists (a connection's page). */
  selections(type: GraphQLNamedType, selectionSet: SelectionSetNode, page: number | null): Measure {
    let cost = 0;
    let depth = 0;
    for (const selection of selectionSet.selections) {
      let measure: Measure;
      if (selection.kind === Kind.FIELD) measure = this.field(type, selection, page);
      else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? this.schema.getType(selection.typeCondition.name.value) : type;
        measure = this.selections(condition ?? type, selection.selectionSet, page);
      } else measure = this.fragment(selection.name.value, page);
      cost += measure.cost;
      depth = Math.max(depth, measure.depth);
    }
    return { cost, depth };
  }

  /** Fields at the top of `selectionSet`, fragments expanded (validation forbids fragment cycles). */
  fieldCount(selectionSet: SelectionSetNode): number {
    let count = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) count += 1;
      else if (selection.kind === Kind.INLINE_FRAGMENT) count += this.fieldCount(selection.selectionSet);
      else {
        const fragment = this.fragments.get(selection.name.value);
        if (fragment) count += this.fieldCount(fragment.selectionSet);
      }
    }
    return count;
  }

  private fragment(name: string, page: number | null): Measure {
    const key = `${name}:${page ?? ''}`;
    const known = this.fragmentMeasures.get(key);
    if (known !== undefined) return known;
    const fragment = this.fragments.get(name);
    const type = fragment ? this.schema.getType(fragment.typeCondition.name.value) : undefined;
    const measure = fragment && type ? this.selections(type, fragment.selectionSet, page) : { cost: 0, depth: 0 };
    this.fragmentMeasures.set(key, measure);
    return measure;
  }

  private field(parent: GraphQLNamedType, node: FieldNode, page: number | null): Measure {
    const definition = fieldDefinition(this.schema, parent, node.name.value);
    const own = 1 + this.listArgumentItems(node);
    if (!definition || !node.selectionSet) return { cost: own, depth: 1 };
    const ownPage = this.pageSize(definition, node);
    const isList = isListType(getNullableType(definition.type));
    const size = isList ? (ownPage ?? this.listSizes[`${parent.name}.${definition.name}`] ?? page ?? this.options.maxPageSize) : 1;
    // A connection (a page argument on a field returning one object) hands its page size to the lists in it.
    const childPage = isList ? null : ownPage;
    const below = this.selections(getNamedType(definition.type), node.selectionSet, childPage);
    const introspection = definition === SchemaMetaFieldDef || definition === TypeMetaFieldDef;
    return { cost: own + size * below.cost, depth: introspection ? 0 : 1 + below.depth };
  }

  /** The field's page argument as counted: its value, else its default, at most maxPageSize; null without one. */
  private pageSize(definition: GraphQLField<unknown, unknown>, node: FieldNode): number | null {
    for (const name of this.pageArguments) {
      const argument = definition.args.find((a) => a.name === name);
      if (!argument) continue;
      const given = node.arguments?.find((a) => a.name.value === name);
      const value = given ? this.intValue(given.value) : null;
      const counted = value ?? (typeof argument.defaultValue === 'number' ? argument.defaultValue : this.options.defaultPageSize);
      return Math.min(this.options.maxPageSize, Math.max(0, Math.floor(counted)));
    }
    return null;
  }

  /** Items of the lists given as arguments (`domains: [...]`, literal or variable): each is work for the resolver. */
  private listArgumentItems(node: FieldNode): number {
    let items = 0;
    for (const argument of node.arguments ?? []) {
      const value = argument.value;
      if (value.kind === Kind.LIST) items += value.values.length;
      else if (value.kind === Kind.VARIABLE) {
        const given = this.options.variables?.[value.name.value];
        if (Array.isArray(given)) items += given.length;
      }
    }
    return items;
  }

  private intValue(value: ValueNode): number | null {
    if (value.kind === Kind.INT) return Number.parseInt(value.value, 10);
    if (value.kind !== Kind.VARIABLE) return null;
    const name = value.name.value;
    const given = this.options.variables?.[name];
    // A variable given (null included) is the argument's value; only an absent one takes the declared default.
    if (given !== undefined) return typeof given === 'number' ? given : null;
    const declared = this.operation.variableDefinitions?.find((d) => d.variable.name.value === name)?.defaultValue;
    return declared && declared.kind === Kind.INT ? Number.parseInt(declared.value, 10) : null;
  }
}

function fieldDefinition(schema: GraphQLSchema, parent: GraphQLNamedType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  if (parent === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  }
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

const introspectionSizes = new WeakMap<GraphQLSchema, Readonly<Record<string, number>>>();

/** The schema's own counts as the sizes of the introspection lists, so the standard introspection query stays cheap. */
function introspectionListSizes(schema: GraphQLSchema): Readonly<Record<string, number>> {
  const known = introspectionSizes.get(schema);
  if (known) return known;
  const types = Object.values(schema.getTypeMap());
  // The mean over the types (fields, ...) that have any, rounded up: `__schema { types { fields ... } }` counts about
  // what it returns (a maximum per type, times every type, counted 70,000 for this small schema).
  const mean = (counts: number[]) => {
    const some = counts.filter((n) => n > 0);
    return some.length === 0 ? 0 : Math.ceil(some.reduce((a, b) => a + b, 0) / some.length);
  };
  const fieldLists = types.flatMap((t) => (isObjectType(t) || isInterfaceType(t) ? [Object.values(t.getFields())] : []));
  const directives = schema.getDirectives();
  const sizes = {
    '__Schema.types': types.length,
    '__Schema.directives': directives.length,
    '__Type.fields': mean(fieldLists.map((fields) => fields.length)),
    '__Type.inputFields': mean(types.map((t) => (isInputObjectType(t) ? Object.keys(t.getFields()).length : 0))),
    '__Type.enumValues': mean(types.map((t) => (isEnumType(t) ? t.getValues().length : 0))),
    '__Type.interfaces': mean(types.map((t) => (isObjectType(t) || isInterfaceType(t) ? t.getInterfaces().length : 0))),
    '__Type.possibleTypes': mean(types.map((t) => (isUnionType(t) || isInterfaceType(t) ? schema.getPossibleTypes(t).length : 0))),
    '__Field.args': mean(fieldLists.flatMap((fields) => fields.map((f) => f.args.length))),
    '__Directive.args': mean(directives.map((d) => d.args.length)),
  };
  introspectionSizes.set(schema, sizes);
  return sizes;
}
