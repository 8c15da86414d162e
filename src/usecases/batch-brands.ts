import { echoIdentifier, type BatchItem, type BatchOutcome } from '../brands/batch-lookup.js';

export type { BatchItem };
import type { Brand } from '../domain/brand.js';
import { paletteText, recordJson, type PaletteText } from './palette-splice.js';
import { charged, type Charged, type Payer } from './payer.js';
import type { UseCaseDeps } from './use-case-deps.js';

export interface BatchRequest {
  items: BatchItem[];
  cachedOnly: boolean;
  allowNsfw: boolean | undefined;
  palette: boolean;
  /** The transport's request id: crawls queued for misses carry it to the worker's log lines (ADR 0039). */
  requestId?: string;
}

const TOO_LARGE = { code: 'response_too_large', message: 'The brand did not fit in this response; request it again in a smaller batch.' };

/** The batch answer as JSON text (spec 2.10) and the brands it returns. */
interface Serialized {
  json: string;
  returned: Brand[];
}

/**
 * Builds the answer as a string: brands are cached serialized, so 100 of them are concatenated, not re-encoded.
 * An item whose brand would push the answer past `maxBytes` answers 413 and is not returned (nor charged).
 */
function serialize(items: BatchItem[], outcomes: BatchOutcome[], palettes: PaletteText[], maxBytes: number): Serialized {
  const returned: Brand[] = [];
  const parts: string[] = [];
  let bytes = 14;
  for (const [i, outcome] of outcomes.entries()) {
    const identifier = echoIdentifier(items[i] as BatchItem);
    let part: string;
    if (outcome.status === 200) {
      part = `{"identifier":${JSON.stringify(identifier)},"status":200,"brand":${recordJson(outcome.brand, palettes[i])}}`;
      if (bytes + Buffer.byteLength(part) > maxBytes) part = JSON.stringify({ identifier, status: 413, ...TOO_LARGE });
      else returned.push(outcome.brand.stored.brand);
    } else {
      const { status, ...rest } = outcome;
      part = JSON.stringify({ identifier, status, ...rest });
    }
    bytes += Buffer.byteLength(part) + 1;
    parts.push(part);
  }
  return { json: `{"results":[${parts.join(',')}]}`, returned };
}

interface Batch {
  deps: UseCaseDeps;
  request: BatchRequest;
  outcomes: BatchOutcome[];
}

async function serializeBatch({ deps, request, outcomes }: Batch): Promise<Serialized> {
  // Each brand's palette under the same lazy rule as a single lookup, built concurrently.
  const palettes = await Promise.all(outcomes.map((o) => (request.palette && o.status === 200 ? paletteText(deps.palettes, o.brand) : undefined)));
  return serialize(request.items, outcomes, palettes, deps.batchResponseMaxBytes);
}

function returnedCost({ deps }: Batch, serialized: Serialized): number {
  return deps.rule.brandsCost(serialized.returned);
}

/**
 * A batch of 1 to 100 identifiers (spec 4.3), answered from the store alone: misses are queued, never crawled
 * while waiting. It holds every credit it could use (one per distinct brand found) or answers 429 with the
 * counters, then charges the brands it returned, each once.
 */
export async function batchBrands(deps: UseCaseDeps, payer: Payer, request: BatchRequest): Promise<Charged<{ json: string }>> {
  const options = { cachedOnly: request.cachedOnly, allowNsfw: request.allowNsfw, itemTimeoutMs: deps.batchItemTimeoutMs, owner: payer.account, requestId: request.requestId };
  const outcomes = await deps.batch.resolve(request.items, options);
  const found = outcomes.flatMap((o) => (o.status === 200 ? [o.brand.stored.brand] : []));
  const context = { deps, request, outcomes };
  const answer = await charged(payer, deps.rule.brandsCost(found), 'batch', 'brand.batch', context, serializeBatch, returnedCost);
  return { ...answer, value: { json: answer.value.json } };
}
