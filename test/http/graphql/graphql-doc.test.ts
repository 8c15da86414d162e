/**
 * docs/webhooks.md prints the webhook management schema: that block must be `printSchema` of the webhook SDL, and
 * docs/transactions.md prints the merchant corrections' part as written; the live service must serve exactly the
 * types and fields of the two together (read back by introspection, type by type; graphql-cost.test.ts reads the
 * whole schema back with the standard introspection query).
 */
import { readFileSync } from 'node:fs';
import { buildSchema, isInputObjectType, isObjectType, printSchema } from 'graphql';
import { WEBHOOK_SDL } from '../../../src/http/graphql/webhook-schema.js';
import { GRAPHQL_SDL } from '../../../src/http/graphql/graphql-schema.js';
import { MERCHANT_CORRECTION_SDL } from '../../../src/http/graphql/merchant-correction-schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestStack, type TestStack } from '../../helpers/test-stack.js';

const DOC = readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
const TRANSACTIONS_DOC = readFileSync(new URL('../../../docs/transactions.md', import.meta.url), 'utf8');

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

/** The fenced ```graphql block under `heading` of `doc`. */
function printedSchema(doc = DOC, heading = '### Schema'): string {
  const section = doc.slice(doc.indexOf(heading));
  const match = /```graphql\n([\s\S]*?)\n```/.exec(section);
  if (!match?.[1]) throw new Error(`no graphql block under "${heading}"`);
  return match[1];
}

describe('docs/webhooks.md', () => {
  it('prints the schema POST /graphql serves', async () => {
    expect(printedSchema()).toBe(printSchema(buildSchema(WEBHOOK_SDL)));
    expect(printedSchema(TRANSACTIONS_DOC, '### GraphQL')).toBe(MERCHANT_CORRECTION_SDL.trim());
    const schema = buildSchema(GRAPHQL_SDL);

    const { key } = await stack.newKey({ plan: 'paid' });
    const ask = async (query: string): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any -- introspection answers
      const res = await stack.app.inject({ method: 'POST', url: '/graphql', headers: bearer(key), payload: { query } });
      expect(res.statusCode).toBe(200);
      return res.json().data;
    };
    const ours = (name: string) => !name.startsWith('__') && !['String', 'Int', 'Float', 'Boolean', 'ID'].includes(name);
    const served = (await ask('{ __schema { types { name } } }')).__schema.types.map((t: { name: string }) => t.name).filter(ours).sort();
    expect(served).toEqual(Object.keys(schema.getTypeMap()).filter(ours).sort());
    for (const type of Object.values(schema.getTypeMap()).filter((t) => ours(t.name) && (isObjectType(t) || isInputObjectType(t)))) {
      const answer = await ask(`{ __type(name: "${type.name}") { fields { name } inputFields { name } } }`);
      const fields = (answer.__type.fields ?? answer.__type.inputFields).map((f: { name: string }) => f.name).sort();
      expect(fields, type.name).toEqual(Object.keys((type as { getFields(): Record<string, unknown> }).getFields()).sort());
    }
  });
});
