/**
 * A remote x402 facilitator in its own process: the official facilitator code (`@x402/core`'s `x402Facilitator`
 * with `@x402/evm`'s `ExactEvmScheme`, registered by `registerExactEvmScheme`) behind a node:http server with the
 * endpoints `HTTPFacilitatorClient` calls: `GET /supported`, `POST /verify`, `POST /settle` (JSON bodies
 * `{x402Version, paymentPayload, paymentRequirements}`). Its signer is the one the x402 docs give a facilitator: a
 * viem wallet client with a local account, wrapped by `toFacilitatorEvmSigner`, over JSON-RPC to `rpcUrl` (the
 * local chain, local-token-chain.ts). Started by x402-facilitator-process.ts with
 * `node --import tsx x402-facilitator.child.ts <settings JSON>` and an IPC channel.
 *
 * IPC: sends `{listening: url}` once serving. On `{hold: true}` the next successful settlement is carried out on the
 * chain but never answered: the child sends `{settled: transaction}` and keeps the request open, so the test can stop the
 * service exactly between the facilitator's settlement and the service's ledger write.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import { createWalletClient, defineChain, http, publicActions, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

interface Settings {
  rpcUrl: string;
  chainId: number;
  privateKey: Hex;
}

const settings = JSON.parse(process.argv[2] ?? '{}') as Settings;
const network = `eip155:${settings.chainId}` as const;
const chain = defineChain({ id: settings.chainId, name: 'local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [settings.rpcUrl] } } });
// A short polling interval: the local chain mines at once, and the default (4 s) would only slow the test.
const account = privateKeyToAccount(settings.privateKey);
const client = createWalletClient({ account, chain, transport: http(settings.rpcUrl), pollingInterval: 50 }).extend(publicActions);
// The adapter the x402 facilitator example writes: the signer's methods over the viem client.
const signer = toFacilitatorEvmSigner({
  address: account.address,
  getCode: (args) => client.getCode(args),
  readContract: (args) => client.readContract({ ...args, args: args.args ?? [] }),
  // viem wants literal typed data; the facilitator passes the EIP-712 shape it built.
  verifyTypedData: (args) => client.verifyTypedData(args as Parameters<typeof client.verifyTypedData>[0]),
  writeContract: (args) => client.writeContract({ ...args, args: args.args }),
  sendTransaction: (args) => client.sendTransaction(args),
  waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
});
const facilitator = new x402Facilitator();
registerExactEvmScheme(facilitator, { signer, networks: network });

let holding = false;
/** Settlements carried out but never answered (kept open until the service that asked is gone). */
const held: ServerResponse[] = [];

interface Body {
  paymentPayload: PaymentPayload;
  paymentRequirements: PaymentRequirements;
}

async function bodyOf(req: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === 'GET' && req.url === '/supported') return json(res, 200, facilitator.getSupported());
  if (req.method !== 'POST' || (req.url !== '/verify' && req.url !== '/settle')) return json(res, 404, { error: 'not found' });
  const body = await bodyOf(req);
  if (req.url === '/verify') return json(res, 200, await facilitator.verify(body.paymentPayload, body.paymentRequirements));
  const settled = await facilitator.settle(body.paymentPayload, body.paymentRequirements);
  if (holding && settled.success) {
    holding = false;
    held.push(res);
    process.send?.({ settled: settled.transaction });
    return;
  }
  json(res, 200, settled);
}

const server = createServer((req, res) => void handle(req, res).catch((error: unknown) => json(res, 500, { error: error instanceof Error ? error.message : String(error) })));
process.on('message', (message: { hold?: boolean }) => {
  holding = message.hold === true;
});
// The parent gone: nothing left to serve.
process.on('disconnect', () => process.exit(0));
server.listen(0, '127.0.0.1', () => process.send?.({ listening: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
