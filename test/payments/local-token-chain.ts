/**
 * The chain under the remote-facilitator test: a JSON-RPC endpoint on loopback answering the few `eth_*` calls the
 * official x402 facilitator makes through viem (a wallet client with a local account, `toFacilitatorEvmSigner`).
 * It is the one substitute in that test (docs/payments.md, "Tested against a facilitator process"): there is no EVM.
 * One token is simulated in TypeScript with the rules of USDC's `transferWithAuthorization` (FiatTokenV2, EIP-3009):
 * the EIP-712 signature of the payer recovered with viem, the validity window against the block time, a single-use
 * nonce per payer, the balance; a successful transfer logs the ERC-20 `Transfer` event the facilitator checks.
 * Transactions are real: the facilitator signs them (EIP-1559) and sends them raw; they are decoded, their sender
 * recovered and their nonce checked, and each is mined into its own block at once. Gas is not charged.
 * Multicall3's `tryAggregate` is answered for the token's view functions (the facilitator's failure diagnosis).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizationTypes } from '@x402/evm';
import {
  decodeFunctionData,
  encodeAbiParameters,
  encodeErrorResult,
  encodeEventTopics,
  encodeFunctionResult,
  getAddress,
  keccak256,
  parseAbi,
  parseTransaction,
  recoverTransactionAddress,
  recoverTypedDataAddress,
  serializeSignature,
  toHex,
  type Hex,
  type TransactionSerialized,
} from 'viem';

const TOKEN_ABI = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function name() view returns (string)',
  'function version() view returns (string)',
  'function authorizationState(address, bytes32) view returns (bool)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);
const MULTICALL_ABI = parseAbi(['function tryAggregate(bool requireSuccess, (address target, bytes callData)[] calls) returns ((bool success, bytes returnData)[])']);
const MULTICALL3 = getAddress('0xcA11bde05977b3631167028862bE2a173976CA11');
const ERROR_ABI = parseAbi(['error Error(string)']);
/** Any non-empty code: the token is a contract, every other address an externally owned account. */
const TOKEN_CODE = '0x6080604052';

export interface LocalToken {
  chainId: number;
  address: Hex;
  /** EIP-712 domain name and version (USDC: `USDC`, `2`). */
  name: string;
  version: string;
}

/** A transfer that was mined: what an operator would see on the chain. */
export interface MinedTransfer {
  transaction: Hex;
  from: Hex;
  to: Hex;
  value: bigint;
  nonce: Hex;
}

export interface LocalTokenChain {
  url: string;
  fund(address: string, value: bigint): void;
  balance(address: string): bigint;
  /** Successful `transferWithAuthorization` transactions, in order. */
  transfers(): readonly MinedTransfer[];
  close(): Promise<void>;
}

/** A revert: answered as JSON-RPC error 3 with the `Error(string)` data, as a node does. */
class Revert extends Error {}

interface Receipt {
  transactionHash: Hex;
  status: '0x1' | '0x0';
  blockNumber: Hex;
  logs: { address: Hex; topics: Hex[]; data: Hex }[];
  from: Hex;
  to: Hex;
}

type Transfer = Omit<MinedTransfer, 'transaction'> & { validAfter: bigint; validBefore: bigint; signature: Hex };

function transferOf(data: Hex): Transfer {
  const { functionName, args } = decodeFunctionData({ abi: TOKEN_ABI, data });
  if (functionName !== 'transferWithAuthorization') throw new Revert(`not a transfer: ${functionName}`);
  const [from, to, value, validAfter, validBefore, nonce, v, r, s] = args;
  return { from, to, value, validAfter, validBefore, nonce, signature: serializeSignature({ r, s, v: BigInt(v) }) };
}

/** Starts the chain on 127.0.0.1 (an ephemeral port). */
export async function startLocalTokenChain(token: LocalToken): Promise<LocalTokenChain> {
  const balances = new Map<string, bigint>();
  const usedNonces = new Set<string>();
  const accountNonces = new Map<string, number>();
  const receipts = new Map<Hex, Receipt>();
  const mined: MinedTransfer[] = [];
  let block = 1;
  // Transactions are mined one at a time: a check and its transfer are never interleaved with another's.
  let mining: Promise<unknown> = Promise.resolve();
  const key = (address: string) => address.toLowerCase();
  const balanceOf = (address: string) => balances.get(key(address)) ?? 0n;
  const now = () => BigInt(Math.floor(Date.now() / 1000));

  /** FiatTokenV2's checks, in its order and with its messages. */
  async function check(t: Transfer): Promise<void> {
    if (now() <= t.validAfter) throw new Revert('FiatTokenV2: authorization is not yet valid');
    if (now() >= t.validBefore) throw new Revert('FiatTokenV2: authorization is expired');
    if (usedNonces.has(key(`${t.from}:${t.nonce}`))) throw new Revert('FiatTokenV2: authorization is used or canceled');
    const domain = { name: token.name, version: token.version, chainId: token.chainId, verifyingContract: getAddress(token.address) };
    const message = { from: t.from, to: t.to, value: t.value, validAfter: t.validAfter, validBefore: t.validBefore, nonce: t.nonce };
    const signer = await recoverTypedDataAddress({ domain, types: authorizationTypes, primaryType: 'TransferWithAuthorization', message, signature: t.signature });
    if (signer !== getAddress(t.from)) throw new Revert('FiatTokenV2: invalid signature');
    if (balanceOf(t.from) < t.value) throw new Revert('ERC20: transfer amount exceeds balance');
  }

  async function callToken(data: Hex): Promise<Hex> {
    const { functionName, args } = decodeFunctionData({ abi: TOKEN_ABI, data });
    switch (functionName) {
      case 'balanceOf':
        return encodeFunctionResult({ abi: TOKEN_ABI, functionName, result: balanceOf(args[0]) });
      case 'name':
        return encodeFunctionResult({ abi: TOKEN_ABI, functionName, result: token.name });
      case 'version':
        return encodeFunctionResult({ abi: TOKEN_ABI, functionName, result: token.version });
      case 'authorizationState':
        return encodeFunctionResult({ abi: TOKEN_ABI, functionName, result: usedNonces.has(key(`${args[0]}:${args[1]}`)) });
      case 'transferWithAuthorization':
        await check(transferOf(data));
        return '0x';
    }
  }

  async function call(to: string, data: Hex): Promise<Hex> {
    if (getAddress(to) === getAddress(token.address)) return callToken(data);
    if (getAddress(to) !== MULTICALL3) throw new Revert(`no contract at ${to}`);
    const { args } = decodeFunctionData({ abi: MULTICALL_ABI, data });
    const results = await Promise.all(
      args[1].map(async (c) => {
        try {
          return { success: true, returnData: await call(c.target, c.callData) };
        } catch {
          return { success: false, returnData: '0x' as Hex };
        }
      }),
    );
    return encodeFunctionResult({ abi: MULTICALL_ABI, functionName: 'tryAggregate', result: results });
  }

  /** Mines a signed transaction into its own block: a reverted transfer is mined with status 0 and no log. */
  async function sendRaw(raw: Hex): Promise<Hex> {
    const tx = parseTransaction(raw);
    const from = await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized });
    if (tx.chainId !== token.chainId) throw new Error(`invalid chain id ${tx.chainId}`);
    const expected = accountNonces.get(key(from)) ?? 0;
    if (tx.nonce !== expected) throw new Error(`nonce ${tx.nonce === undefined || tx.nonce < expected ? 'too low' : 'too high'}: expected ${expected}`);
    if (!tx.to || getAddress(tx.to) !== getAddress(token.address) || !tx.data) throw new Error('this chain only runs the token');
    accountNonces.set(key(from), expected + 1);
    const hash = keccak256(raw);
    const receipt: Receipt = { transactionHash: hash, status: '0x0', blockNumber: toHex(++block), logs: [], from, to: tx.to };
    try {
      const t = transferOf(tx.data);
      await check(t);
      balances.set(key(t.from), balanceOf(t.from) - t.value);
      balances.set(key(t.to), balanceOf(t.to) + t.value);
      usedNonces.add(key(`${t.from}:${t.nonce}`));
      const topics = encodeEventTopics({ abi: TOKEN_ABI, eventName: 'Transfer', args: { from: t.from, to: t.to } }) as Hex[];
      receipt.logs.push({ address: token.address, topics, data: encodeAbiParameters([{ type: 'uint256' }], [t.value]) });
      receipt.status = '0x1';
      mined.push({ transaction: hash, from: t.from, to: t.to, value: t.value, nonce: t.nonce });
    } catch (error) {
      if (!(error instanceof Revert)) throw error;
    }
    receipts.set(hash, receipt);
    return hash;
  }

  function receiptJson(r: Receipt) {
    const blockHash = keccak256(r.blockNumber);
    return {
      ...r,
      blockHash,
      transactionIndex: '0x0',
      cumulativeGasUsed: '0x5208',
      gasUsed: '0x5208',
      effectiveGasPrice: '0x1',
      contractAddress: null,
      type: '0x2',
      logsBloom: `0x${'0'.repeat(512)}`,
      logs: r.logs.map((log, i) => ({ ...log, blockHash, blockNumber: r.blockNumber, transactionHash: r.transactionHash, transactionIndex: '0x0', logIndex: toHex(i), removed: false })),
    };
  }

  function blockJson() {
    const number = toHex(block);
    return {
      number,
      hash: keccak256(number),
      parentHash: keccak256(toHex(block - 1)),
      timestamp: toHex(now()),
      baseFeePerGas: '0x1',
      gasLimit: '0x1c9c380',
      gasUsed: '0x0',
      miner: `0x${'0'.repeat(40)}`,
      transactions: [],
    };
  }

  async function answer(method: string, params: unknown[]): Promise<unknown> {
    switch (method) {
      case 'eth_chainId':
        return toHex(token.chainId);
      case 'eth_blockNumber':
        return toHex(block);
      case 'eth_getBlockByNumber':
        return blockJson();
      case 'eth_getCode':
        return getAddress(String(params[0])) === getAddress(token.address) ? TOKEN_CODE : '0x';
      case 'eth_getTransactionCount':
        return toHex(accountNonces.get(key(String(params[0]))) ?? 0);
      case 'eth_gasPrice':
      case 'eth_maxPriorityFeePerGas':
        return '0x1';
      case 'eth_estimateGas':
        return '0x186a0';
      case 'eth_call': {
        const request = params[0] as { to: string; data?: Hex; input?: Hex };
        return call(request.to, request.data ?? request.input ?? '0x');
      }
      case 'eth_sendRawTransaction': {
        const sent = mining.then(() => sendRaw(params[0] as Hex));
        mining = sent.catch(() => undefined);
        return sent;
      }
      case 'eth_getTransactionReceipt': {
        const receipt = receipts.get(params[0] as Hex);
        return receipt ? receiptJson(receipt) : null;
      }
      default:
        throw new Error(`the local chain does not answer ${method}`);
    }
  }

  async function respond(body: { id: unknown; method: string; params?: unknown[] }) {
    try {
      return { jsonrpc: '2.0', id: body.id, result: await answer(body.method, body.params ?? []) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof Revert) return { jsonrpc: '2.0', id: body.id, error: { code: 3, message: `execution reverted: ${message}`, data: encodeErrorResult({ abi: ERROR_ABI, errorName: 'Error', args: [message] }) } };
      return { jsonrpc: '2.0', id: body.id, error: { code: -32000, message } };
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Parameters<typeof respond>[0] | Parameters<typeof respond>[0][];
    const result = Array.isArray(body) ? await Promise.all(body.map(respond)) : await respond(body);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
  }

  const server = createServer((req, res) => void handle(req, res).catch((error: unknown) => res.writeHead(400).end(String(error))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    fund: (address, value) => void balances.set(key(address), balanceOf(address) + value),
    balance: balanceOf,
    transfers: () => [...mined],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
