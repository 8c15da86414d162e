/**
 * `POST /graphql`: webhook management (spec 6 rule 5, docs/webhooks.md) and merchant corrections (issue 34,
 * docs/transactions.md#graphql) with mercurius. Authenticated with the organization's API key exactly like the REST
 * routes (credentials.ts): no key or a malformed header 401, an unknown or revoked key 403, a free-plan organization
 * 403 `paid_plan_required` for any operation that names a webhook field (merchant corrections and introspection
 * alone serve every plan; checked on the validated document, before anything runs). Those answers, and requests that
 * are not valid GraphQL (400), carry the HTTP status and a GraphQL `errors` array whose `extensions.code` is the
 * registry code (src/domain/errors.ts). Errors of single fields (e.g. `webhook_not_found`) are answered 200 with
 * `errors`, as GraphQL does. Not billed: managing webhooks costs no credit (ADR 0032).
 *
 * Bounded before anything runs (issue 33, docs/webhooks.md#query-cost): a document over MAX_TOKENS is not parsed
 * further (400 `invalid_graphql_request`); once it is parsed and validated,
 * its estimated cost (query-cost.ts) over BRANDBASE_GRAPHQL_MAX_COST, more than MAX_ROOT_FIELDS root fields or a
 * depth over QUERY_DEPTH answer 400 (`query_too_expensive`, `invalid_graphql_request` for the depth); then the cost
 * is taken from the organization's BRANDBASE_GRAPHQL_COST_PER_MINUTE, and an organization past it is answered 429
 * `rate_limited` with Retry-After.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildSchema, getOperationAST, GraphQLError, Kind, type DocumentNode, type ExecutionResult, type SelectionSetNode } from 'graphql';
import mercurius from 'mercurius';
import { ApiError, ERROR_CODES, type ErrorCode } from '../../domain/errors.js';
import type { Logger } from '../../platform/logger.js';
import type { WebhookManagement } from '../../webhooks/management/webhook-management.js';
import type { AppDeps, GraphqlCostLimits } from '../app-deps.js';
import { authenticate } from '../credentials.js';

const GRAPHQL_ROUTE = { method: 'POST', template: '/graphql', missing: 'unauthorized' } as const;
import type { GraphqlContext } from './webhook-resolvers.js';
import { GRAPHQL_LIST_SIZES, GRAPHQL_SDL, graphqlResolvers } from './graphql-schema.js';
import { MERCHANT_CORRECTION_ROOT_FIELDS } from './merchant-correction-schema.js';
import type { MerchantCorrections } from '../../transactions/corrections/merchant-corrections.js';
import { queryCost } from './query-cost.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../webhooks/management/page-cursor.js';

export const GRAPHQL_PATH = '/graphql';
/** Deep enough for webhooks → deliveries → attempts with their connections, no deeper (introspection is not counted). */
const QUERY_DEPTH = 10;
/** Fields at the top of one request, aliases included: twenty operations are plenty for one round trip. */
export const MAX_ROOT_FIELDS = 20;
/**
 * Tokens one document may hold, checked while it is parsed, so that parsing and validating it (graphql's overlapping-fields
 * rule compares fields of the same name pairwise) stay small: the standard introspection query has 163, 50 aliases of
 * `webhooks → deliveries` 1,102, 1,000 domains written out in a mutation about 1,010.
 */
export const MAX_TOKENS = 5000;

interface GraphqlErrorBody {
  message: string;
  locations?: readonly { line: number; column: number }[];
  path?: readonly (string | number)[];
  extensions: { code: ErrorCode; status: number };
}

function errorBody(message: string, code: ErrorCode, error?: GraphQLError): GraphqlErrorBody {
  return {
    message,
    ...(error?.locations ? { locations: error.locations } : {}),
    ...(error?.path ? { path: error.path } : {}),
    extensions: { code, status: ERROR_CODES[code].status },
  };
}

/** A field's error: a registry error as it is, GraphQL's own (argument coercion) as 400, anything else hidden. */
function fieldError(logger: Logger, request: FastifyRequest | undefined, error: GraphQLError): GraphqlErrorBody {
  const original = error.originalError;
  if (original instanceof ApiError) return errorBody(original.message, original.code, error);
  if (original === undefined || original instanceof GraphQLError) return errorBody(error.message, 'invalid_graphql_request', error);
  logger.error({ err: original, reqId: request?.id }, 'graphql resolver failed');
  return errorBody(ERROR_CODES.internal_error.message, 'internal_error', error);
}

/** A whole-request refusal: the registry's status, `x-bf-error` and headers, the body in GraphQL's shape (its extra fields in `extensions`). */
function sendRequestError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.header) reply.header('x-bf-error', error.header);
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  const body = errorBody(error.message, error.code);
  return reply.code(error.status).send({ errors: [{ ...body, extensions: { ...body.extensions, ...error.body } }] });
}

/**
 * The schema the cost is measured on, built by this module's graphql: mercurius builds its own from the same SDL with
 * the CommonJS copy of graphql, whose types graphql's ESM helpers (`isListType`, ...) do not recognize.
 */
const COST_SCHEMA = buildSchema(GRAPHQL_SDL);

/** The root field names of the operation that will run, fragments expanded (each fragment once). */
function rootFieldNames(document: DocumentNode, operationName: string | null | undefined): Set<string> {
  const names = new Set<string>();
  const operation = getOperationAST(document, operationName ?? undefined);
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode): void => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) names.add(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  if (operation) walk(operation.selectionSet);
  return names;
}

/** Webhook fields are for paid plans (spec 6); merchant corrections and introspection alone serve every plan. */
function assertPlanAllows(document: DocumentNode, context: GraphqlContext): void {
  const names = rootFieldNames(document, context.operationName);
  const paidOnly = [...names].some((name) => !name.startsWith('__') && !MERCHANT_CORRECTION_ROOT_FIELDS.has(name));
  if (paidOnly) context.management.assertAllowed(context.org);
}

/**
 * The mercurius `preExecution` hook: the parsed, validated document is measured (query-cost.ts) and refused, or its
 * cost charged to the organization, before any resolver runs. Throws the ApiError `handle` answers.
 */
function admitQuery(limits: GraphqlCostLimits, document: DocumentNode, context: GraphqlContext, variables: Record<string, unknown> | undefined): void {
  const { cost, rootFields, depth } = queryCost(COST_SCHEMA, document, {
    variables,
    operationName: context.operationName,
    defaultPageSize: DEFAULT_PAGE_SIZE,
    maxPageSize: MAX_PAGE_SIZE,
    listSizes: GRAPHQL_LIST_SIZES,
  });
  if (depth > QUERY_DEPTH) {
    throw new ApiError('invalid_graphql_request', `Query depth (${depth}) exceeds the query depth limit of ${QUERY_DEPTH}.`);
  }
  if (cost > limits.maxCost) {
    throw new ApiError(
      'query_too_expensive',
      `Query too expensive: its estimated cost is ${cost}, over the limit of ${limits.maxCost} per request. Ask for smaller pages (first), fewer fields or fewer aliases; nothing was run.`,
      { cost, maxCost: limits.maxCost },
    );
  }
  if (rootFields > MAX_ROOT_FIELDS) {
    throw new ApiError('query_too_expensive', `Query too expensive: ${rootFields} root fields (aliases included), at most ${MAX_ROOT_FIELDS} per request; nothing was run.`, {
      rootFields,
      maxRootFields: MAX_ROOT_FIELDS,
    });
  }
  const waitMs = limits.spend(context.org.id, cost);
  if (waitMs > 0) {
    const retryAfter = Number.isFinite(waitMs) ? Math.ceil(waitMs / 1000) : 60;
    throw new ApiError(
      'rate_limited',
      'Too much GraphQL work for this organization: its cost per minute is spent; retry after the number of seconds in Retry-After. Nothing was run.',
      { cost },
      { 'retry-after': String(retryAfter) },
    );
  }
}

interface GraphqlBody {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

function readBody(body: unknown): GraphqlBody {
  const refuse = (why: string) => new ApiError('invalid_graphql_request', `Invalid GraphQL request: ${why}.`);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw refuse('send a JSON object {"query": ..., "variables": ...}');
  const { query, variables, operationName, ...rest } = body as Record<string, unknown>;
  if (typeof query !== 'string' || query.trim() === '') throw refuse('"query" must be a non-empty string');
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) throw refuse('"variables" must be an object');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') throw refuse('"operationName" must be a string');
  // `extensions` is allowed by GraphQL over HTTP and ignored here; anything else is a client bug worth saying.
  const unknown = Object.keys(rest).filter((k) => k !== 'extensions');
  if (unknown.length > 0) throw refuse(`unknown property "${unknown[0] ?? ''}"`);
  return { query, variables: (variables ?? null) as Record<string, unknown> | null, operationName: (operationName ?? null) as string | null };
}

/** Mercurius' validation failures (syntax, schema validation, variables, depth) carry the GraphQL errors. */
function validationErrors(error: unknown): GraphQLError[] | null {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== 'MER_ERR_GQL_VALIDATION') return null;
  const errors = (error as { errors?: unknown }).errors;
  return Array.isArray(errors) ? (errors as GraphQLError[]) : [];
}

async function handle(deps: AppDeps, management: WebhookManagement, corrections: MerchantCorrections, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  reply.header('cache-control', 'no-store');
  let context: GraphqlContext;
  let body: GraphqlBody;
  try {
    const { org, key } = await authenticate(deps, request, GRAPHQL_ROUTE);
    body = readBody(request.body);
    context = { org, management, corrections, actor: key.id, requestId: request.id, operationName: body.operationName };
  } catch (error) {
    if (error instanceof ApiError) return sendRequestError(reply, error);
    throw error;
  }
  let result: ExecutionResult;
  try {
    result = await reply.graphql(body.query, context as never, body.variables ?? undefined, body.operationName ?? undefined);
  } catch (error) {
    if (error instanceof ApiError) return sendRequestError(reply, error);
    const invalid = validationErrors(error);
    if (!invalid) throw error;
    const errors = invalid.map((e) => errorBody(e.message, 'invalid_graphql_request', e instanceof GraphQLError ? e : undefined));
    return reply.code(400).send({ errors });
  }
  return reply.send(result);
}

/** Registers `POST /graphql` in its own scope (mercurius decorates that scope only). */
export function registerGraphqlRoute(app: FastifyInstance, deps: AppDeps): void {
  const management = deps.webhooks;
  void app.register(async (scope) => {
    await scope.register(mercurius, {
      schema: GRAPHQL_SDL,
      resolvers: graphqlResolvers as never,
      // Our own route: POST only, our authentication and error shapes. No GraphiQL, no GET.
      routes: false,
      // The depth is checked with the cost (admitQuery), so that introspection's nested type references pass.
      graphql: { parseOptions: { maxTokens: MAX_TOKENS } },
      errorFormatter: (execution, ctx) => ({
        statusCode: 200,
        response: {
          data: execution.data ?? null,
          errors: execution.errors.map((e) => fieldError(deps.logger, (ctx as { reply?: FastifyReply }).reply?.request, e)) as never,
        },
      }),
    });
    scope.graphql.addHook('preExecution', (_schema, document, context, variables) => {
      assertPlanAllows(document, context as unknown as GraphqlContext);
      admitQuery(deps.graphql, document, context as unknown as GraphqlContext, variables as Record<string, unknown> | undefined);
    });
    scope.post(GRAPHQL_PATH, { schema: { hide: true } }, (request, reply) => handle(deps, management, deps.corrections, request, reply));
  });
}
