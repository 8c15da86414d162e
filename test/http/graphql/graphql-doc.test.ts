/**
 * docs/webhooks.md prints the management schema: that block must be `printSchema` of the SDL `POST /graphql` is
 * built from, and the live service must serve exactly those types and fields (read back by introspection, type by
 * type; graphql-cost.test.ts reads the whole schema back with the standard introspection query).
 */
import { readFileSync } from 'node:fs';
import { buildSchema, isInputObjectType, isObjectType, printSchema } from 'graphql';
import { WEBHOOK_SDL } from '../../../src/http/graphql/webhook-schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestStack, type TestStack } from '../../helpers/test-stack.js';

const DOC = readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

/** The fenced ```graphql block under "### Schema". */
function printedSchema(): string {
  const section = DOC.slice(DOC.indexOf('### Schema'));
  const match = /```graphql\n([\s\S]*?)\n```/.exec(section);
  if (!match?.[1]) throw new Error('docs/webhooks.md has no graphql block under "### Schema"');
  return match[1];
}

describe('docs/webhooks.md', () => {
  it('prints the schema POST /graphql serves', async () => {
    const schema = buildSchema(WEBHOOK_SDL);
    expect(printedSchema()).toBe(printSchema(schema));

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
