/** x402 settings (docs/configuration.md, "Payments"); amounts in the asset's integer base units. */
export interface X402Settings {
  /** CAIP-2 network, e.g. `eip155:8453` (Base) or `eip155:84532` (Base Sepolia). */
  network: string;
  /** The stablecoin's contract address. */
  asset: string;
  /** EIP-712 domain name and version of the token (USDC: `USD Coin` on Base, `USDC` on Base Sepolia; `2`). */
  assetName: string;
  assetVersion: string;
  /** The operator's receiving address. */
  payTo: string;
  /** Price of one paid request in base units (0.10 USD of a 6-decimal stablecoin: 100000). */
  priceUnits: bigint;
  /** How long a signed authorization may be presented (also after a 404 `crawl_queued`, with the same payment). */
  maxTimeoutSeconds: number;
  /** A remote facilitator's URL (production); null runs the embedded facilitator over the local ledger. */
  facilitatorUrl: string | null;
}
