/**
 * The embedded x402 facilitator's chain (ADR 0028): the `FacilitatorEvmSigner` seam of `@x402/evm` served by the
 * store's ledger instead of an RPC node, so the official facilitator code (`ExactEvmScheme`) verifies and settles
 * EIP-3009 authorizations offline. Signatures are really checked: viem recovers the signer of the EIP-712
 * `TransferWithAuthorization` typed data; the token's rules (validity window, single-use nonce, balance) are
 * enforced here and, atomically, by `ledgerTransfer`.
 */
import type { FacilitatorEvmSigner } from '@x402/evm';
import {
  decodeFunctionData,
  encodeFunctionResult,
  getAddress,
  keccak256,
  encodePacked,
  parseAbi,
  serializeSignature,
  verifyTypedData,
  type Hex,
} from 'viem';
import type { PaymentLedger } from './payment-store.js';

export interface LedgerToken {
  /** CAIP-2 network, e.g. `eip155:84532`. */
  network: string;
  /** The token's address (the EIP-712 verifying contract). */
  asset: string;
  /** EIP-712 domain name and version of the token (USDC on Base Sepolia: `USDC`, `2`). */
  name: string;
  version: string;
}

const TOKEN_ABI = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function name() view returns (string)',
  'function version() view returns (string)',
  'function authorizationState(address, bytes32) view returns (bool)',
]);

const AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** The address the embedded facilitator reports as its signer (it never signs anything). */
export const EMBEDDED_FACILITATOR_ADDRESS = '0x000000000000000000000000000000000000fAc1';

/** What a transferWithAuthorization call carries: `[from, to, value, validAfter, validBefore, nonce, v, r, s]`. */
interface Authorization {
  from: Hex;
  to: Hex;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
  nonce: Hex;
  signature: Hex;
}

function authorizationOf(args: readonly unknown[] | undefined): Authorization {
  const a = args ?? [];
  if (a.length !== 9) throw new Error('transferWithAuthorization: only 65-byte ECDSA signatures are supported by the embedded ledger');
  const [from, to, value, validAfter, validBefore, nonce, v, r, s] = a as [Hex, Hex, bigint, bigint, bigint, Hex, number | bigint, Hex, Hex];
  return { from, to, value: BigInt(value), validAfter: BigInt(validAfter), validBefore: BigInt(validBefore), nonce, signature: serializeSignature({ r, s, v: BigInt(v) }) };
}

/** A deterministic transaction reference: one authorization can only ever settle once. */
export function ledgerTransactionHash(network: string, from: string, nonce: string): Hex {
  return keccak256(encodePacked(['string', 'address', 'bytes32'], [network, getAddress(from), nonce as Hex]));
}

/** Signatures already recovered, by their whole message: the facilitator simulates, then writes (one check each). */
const VERIFIED_MAX = 1024;

export class LedgerEvmSigner implements FacilitatorEvmSigner {
  readonly #chainId: number;
  readonly #verified = new Set<string>();

  constructor(
    private readonly ledger: PaymentLedger,
    private readonly token: LedgerToken,
    private readonly now: () => Date = () => new Date(),
  ) {
    const chain = /^eip155:(\d+)$/.exec(token.network);
    if (!chain?.[1]) throw new Error(`the embedded ledger needs an eip155 network, got "${token.network}"`);
    this.#chainId = Number(chain[1]);
  }

  getAddresses(): readonly Hex[] {
    return [EMBEDDED_FACILITATOR_ADDRESS];
  }

  verifyTypedData(args: Parameters<FacilitatorEvmSigner['verifyTypedData']>[0]): Promise<boolean> {
    // viem's own types want literal typed-data; the facilitator passes the EIP-3009 shape it built.
    return verifyTypedData(args as Parameters<typeof verifyTypedData>[0]);
  }

  async readContract(args: Parameters<FacilitatorEvmSigner['readContract']>[0]): Promise<unknown> {
    if (args.functionName === 'tryAggregate') return this.#tryAggregate(args.args);
    this.#assertToken(args.address);
    switch (args.functionName) {
      case 'transferWithAuthorization':
        // An eth_call: throws like a revert when the transfer would fail.
        await this.#check(authorizationOf(args.args));
        return undefined;
      case 'balanceOf':
        return this.ledger.ledgerBalance(this.token.network, this.token.asset, String(args.args?.[0]));
      case 'authorizationState':
        return (await this.ledger.ledgerAuthorization(this.token.network, this.token.asset, String(args.args?.[0]), String(args.args?.[1]))) !== null;
      case 'name':
        return this.token.name;
      case 'version':
        return this.token.version;
      default:
        throw new Error(`the embedded ledger does not implement ${args.functionName}`);
    }
  }

  async writeContract(args: Parameters<FacilitatorEvmSigner['writeContract']>[0]): Promise<Hex> {
    this.#assertToken(args.address);
    if (args.functionName !== 'transferWithAuthorization') throw new Error(`the embedded ledger does not implement ${args.functionName}`);
    const auth = authorizationOf(args.args);
    await this.#checkSignatureAndWindow(auth);
    const transaction = ledgerTransactionHash(this.token.network, auth.from, auth.nonce);
    await this.ledger.ledgerTransfer({ network: this.token.network, asset: this.token.asset, from: auth.from, to: auth.to, value: auth.value, nonce: auth.nonce, transaction, at: this.now() });
    return transaction;
  }

  sendTransaction(): Promise<Hex> {
    return Promise.reject(new Error('the embedded ledger deploys no contracts'));
  }

  /** Transfers are applied when written; there is nothing to wait for. */
  waitForTransactionReceipt(): Promise<{ status: string }> {
    return Promise.resolve({ status: 'success' });
  }

  /** The token is a contract; every other address is an externally owned account (ECDSA signatures). */
  getCode(args: { address: Hex }): Promise<Hex | undefined> {
    return Promise.resolve(getAddress(args.address) === getAddress(this.token.asset) ? '0x6080' : '0x');
  }

  #assertToken(address: string): void {
    if (getAddress(address) !== getAddress(this.token.asset)) throw new Error(`the embedded ledger holds only ${this.token.asset}`);
  }

  async #checkSignatureAndWindow(auth: Authorization): Promise<void> {
    await this.#checkSignature(auth);
    const now = BigInt(Math.floor(this.now().getTime() / 1000));
    if (now <= auth.validAfter) throw new Error('FiatTokenV2: authorization is not yet valid');
    if (now >= auth.validBefore) throw new Error('FiatTokenV2: authorization is expired');
  }

  /** ECDSA recovery costs milliseconds; a signature over the same message is checked once per process. */
  async #checkSignature(auth: Authorization): Promise<void> {
    const key = [auth.from, auth.to, auth.value, auth.validAfter, auth.validBefore, auth.nonce, auth.signature].join('|');
    if (this.#verified.has(key)) return;
    const valid = await verifyTypedData({
      address: auth.from,
      domain: { name: this.token.name, version: this.token.version, chainId: this.#chainId, verifyingContract: getAddress(this.token.asset) },
      types: AUTHORIZATION_TYPES,
      primaryType: 'TransferWithAuthorization',
      message: { from: auth.from, to: auth.to, value: auth.value, validAfter: auth.validAfter, validBefore: auth.validBefore, nonce: auth.nonce },
      signature: auth.signature,
    });
    if (!valid) throw new Error('FiatTokenV2: invalid signature');
    if (this.#verified.size >= VERIFIED_MAX) this.#verified.clear();
    this.#verified.add(key);
  }

  async #check(auth: Authorization): Promise<void> {
    await this.#checkSignatureAndWindow(auth);
    if ((await this.ledger.ledgerAuthorization(this.token.network, this.token.asset, auth.from, auth.nonce)) !== null) throw new Error('FiatTokenV2: authorization is used or canceled');
    if ((await this.ledger.ledgerBalance(this.token.network, this.token.asset, auth.from)) < auth.value) throw new Error('ERC20: transfer amount exceeds balance');
  }

  /** Multicall3 `tryAggregate` over the token's view functions (the facilitator's failure diagnosis). */
  async #tryAggregate(args: readonly unknown[] | undefined): Promise<{ success: boolean; returnData: Hex }[]> {
    const calls = (args?.[1] ?? []) as readonly { target: Hex; callData: Hex }[];
    return Promise.all(
      calls.map(async (call) => {
        try {
          const { functionName, args: callArgs } = decodeFunctionData({ abi: TOKEN_ABI, data: call.callData });
          const result = await this.readContract({ address: call.target, abi: TOKEN_ABI, functionName, args: callArgs ?? [] });
          return { success: true, returnData: encodeFunctionResult({ abi: TOKEN_ABI, functionName, result } as Parameters<typeof encodeFunctionResult>[0]) };
        } catch {
          return { success: false, returnData: '0x' as Hex };
        }
      }),
    );
  }
}
