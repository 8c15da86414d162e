/**
 * Statement lines that name no merchant (issue 34, docs/transactions.md#people-transfers-and-fees): payments between
 * people and between accounts (PayPal, Venmo, Zelle, Cash App, Revolut, Wise, Apple Cash, Google Pay's transfers,
 * and the transfer wording of banks in the major markets), bank fees, interest, cash (ATMs and counters), cheques,
 * and pay (payroll, salary), refunds and reversals of those included. The matcher answers no merchant for them
 * before any alias or name is looked up: an intermediary or a bank is never the merchant of a transfer. Written by
 * us from how banks and payment apps word these lines; pure.
 *
 * A facilitator's checkout form (`PAYPAL *NETFLIX`, `VENMO *<NAME>`, processors.ts) is not a transfer by itself: the
 * rules then read only what follows the prefix, and transactions/payees.ts decides whether that is a merchant.
 */
import { normalizeName } from '../domain/search-text.js';
import { MAX_LABEL_LENGTH, stripNoise, stripProcessor } from './descriptor.js';
import { GENERIC_WORDS } from './word-lists.js';

export type NonMerchantKind = 'transfer' | 'fee' | 'interest' | 'cash' | 'cheque' | 'payroll';

export interface NonMerchantLine {
  kind: NonMerchantKind;
  /** What decided it: the rule's words or pattern. */
  rule: string;
}

interface Rule {
  kind: NonMerchantKind;
  /** Word sequences (normalized) that mark the line wherever they stand. */
  words?: readonly string[];
  /** Parts of one word: German and Nordic compounds (`sepaueberweisung`, `kontofuehrungsentgelt`). */
  stems?: readonly string[];
  /** Patterns over the normalized line (words joined by one space), with and without the card-network noise at its start. */
  patterns?: readonly RegExp[];
  /** A test over the line's words after card-network noise: what decided it, or null. */
  check?: (tokens: readonly string[]) => string | null;
  /** Only for transactions of these countries: elsewhere the word names other things. */
  countries?: readonly string[];
}

const RULES: readonly Rule[] = [
  // Interest, anywhere on the line (PINTEREST is another word).
  { kind: 'interest', words: ['interest', 'finance charge', 'interets', 'agios', 'intereses', 'interessi', 'juros', 'odsetki'], stems: ['zinsen'] },
  { kind: 'interest', words: ['rente', 'zins'], countries: ['NL', 'BE', 'DE', 'AT', 'CH', 'LU'] },
  { kind: 'interest', words: ['ranta'], countries: ['SE'] },
  { kind: 'interest', words: ['renter'], countries: ['NO', 'DK'] },
  { kind: 'interest', words: ['korko'], countries: ['FI'] },
  // Bank fees named as such wherever they stand (other fee lines: feeLine below).
  {
    kind: 'fee',
    words: [
      'overdraft', 'nsf', 'insufficient funds', 'returned item', 'non sterling', 'foreign transaction fee', 'frais bancaires', 'tenue de compte',
      'commission d intervention', 'cotisation carte', 'cotis carte', 'comision mantenimiento', 'comision de mantenimiento',
      'spese tenuta conto', 'canone mensile', 'bankkosten', 'rechnungsabschluss',
    ],
    stems: ['kontofuhrung', 'kontofuehrung'],
  },
  // Other fee lines: a fee word, and only a bank's words besides (`MONTHLY SERVICE FEE`, `PAYPAL FEE`).
  { kind: 'fee', check: feeLine },
  // Payment apps and money transfer services: their name outside a checkout form is a transfer (top-ups, cash-outs,
  // bank-funded payments, their own fees).
  {
    kind: 'transfer',
    words: [
      'paypal', 'venmo', 'zelle', 'cash app', 'cashapp', 'square cash', 'apple cash', 'apple pay cash', 'revolut', 'transferwise', 'western union',
      'moneygram', 'remitly', 'xoom', 'worldremit', 'skrill', 'tikkie', 'betaalverzoek', 'bizum', 'satispay', 'vipps', 'mobilepay', 'twint',
      'paylib', 'mbway', 'mb way', 'osko', 'payid', 'bpay', 'pay anyone', 'payshap',
    ],
  },
  {
    kind: 'transfer',
    patterns: [
      // Wise (ex-TransferWise): "WISE", "WISE.COM", "WISE PAYMENTS LTD", "WISE 1234": not "WISE GUYS PIZZA".
      /^wise(?: (?:com|payments?|europe|us|inc|ltd|limited|sa|nv|transfer|topup|top|card)\b| \S*\d|$)/,
      // Lydia (France): "LYDIA", "LYDIA SOLUTIONS": not "LYDIA'S KITCHEN".
      /(?:^| )lydia(?: (?:solutions|app)\b| \S*\d|$)/,
      // Google Pay's transfers between people ("GOOGLE PAY SEND", "GPAY TRANSFER"); "GOOGLE PAY" alone is a wallet.
      /\b(?:google pay|gpay) (?:send|sent|transfer|xfer|money|p2p|cash)\b/,
    ],
  },
  { kind: 'transfer', words: ['swish'], countries: ['SE'] },
  { kind: 'transfer', words: ['pix', 'ted'], countries: ['BR'] },
  { kind: 'transfer', words: ['spei'], countries: ['MX'] },
  { kind: 'transfer', words: ['neft', 'imps', 'rtgs'], countries: ['IN'] },
  { kind: 'transfer', words: ['paynow'], countries: ['SG'] },
  { kind: 'transfer', words: ['emt'], countries: ['CA'] },
  { kind: 'transfer', words: ['eft'], countries: ['ZA'] },
  { kind: 'transfer', words: ['fpi', 'fpo'], countries: ['GB', 'IE'] },
  { kind: 'transfer', words: ['vir'], countries: ['FR', 'BE', 'LU', 'CH', 'MC'] },
  // Bank transfer wording. US: ONLINE TRANSFER, ACH TRANSFER, WIRE; UK: FASTER PAYMENT, FPS, STANDING ORDER, BACS,
  // BGC, TFR; CA: E-TRANSFER, INTERAC E-TRF; AU: OSKO, PAYID, BPAY, TFER; FR: VIR, VIREMENT; NL: OVERSCHRIJVING,
  // OVERBOEKING; ES/PT: TRANSFERENCIA, TRASPASO; IT: BONIFICO, GIROCONTO; Nordics: OVERFORING, OVERFORSEL,
  // TILISIIRTO; PL: PRZELEW; DE/AT/CH: UEBERWEISUNG, DAUERAUFTRAG, UMBUCHUNG (compounds, below).
  {
    kind: 'transfer',
    words: [
      'transfer to', 'transfer from', 'transferred to', 'transferred from', 'xfer', 'xfr', 'tfr', 'trf', 'tfer', 'transf', 'p2p', 'send money',
      'sent money', 'money sent', 'money received', 'incoming wire', 'outgoing wire', 'domestic wire', 'international wire', 'intl wire',
      'wire in', 'wire out', 'wire type', 'wire transfer', 'faster payment', 'faster payments', 'fps', 'standing order', 'bacs', 'bgc',
      'bank giro credit', 'e transfer', 'etransfer', 'e trf', 'e tfr', 'etrnsfr', 'interac e', 'interac transfer', 'autodeposit',
      'email money transfer', 'payment thank you', 'virement', 'overschrijving', 'overboeking', 'transferencia', 'traspaso',
      'bonifico', 'bonif', 'giroconto', 'girofondi', 'overforing', 'overforsel', 'tilisiirto', 'przelew',
    ],
    stems: ['uberweisung', 'ueberweisung', 'dauerauftrag', 'umbuchung', 'ubertrag', 'uebertrag'],
    patterns: [
      // A kind of transfer: ONLINE TRANSFER, INTERNAL XFER, FUNDS TFER, MB-TRANSFER (not "TRANSFER COFFEE").
      /\b(?:online|mobile|internal|external|ach|wire|funds?|book|bank|balance|account|acct|instant|inst|recurring|scheduled|netbank|internet|www|mb|fast|immediate|ib|email|money|international|intl|sepa|savings?|checking|chk|sav) (?:transfer|xfer|tfr|trf|tfer)\b/,
      // TRANSFER or WIRE first, then a direction, a reference or nothing.
      /^(?:transfer|wire)(?: (?:to|from|in|out|ref|id|conf|sent|received|type|fed)\b| \S*\d|$)/,
    ],
  },
  // Cash: ATMs, counters, cash advances, cash deposits.
  {
    kind: 'cash',
    words: [
      'atm', 'cash withdrawal', 'cash wdl', 'cash advance', 'cashpoint', 'cash machine', 'cash deposit', 'cash out', 'cashout', 'withdrawal',
      'withdrawl', 'withdraw', 'wdl', 'retrait', 'cajero', 'reintegro', 'efectivo', 'retirada', 'retiro cajero', 'retiro atm', 'prelievo',
      'prelevamento', 'contanti', 'geldopname', 'geldopneming', 'auszahlung', 'uttag', 'bankomat', 'minibank', 'haevning', 'nosto', 'saque',
      'levantamento', 'wyplata',
    ],
    stems: ['geldautomat', 'bargeld', 'barauszahlung'],
  },
  { kind: 'cash', words: ['abm'], countries: ['CA'] },
  { kind: 'cash', words: ['dab'], countries: ['FR', 'BE', 'LU', 'CH', 'MC'] },
  { kind: 'cash', words: ['gea'], countries: ['NL', 'BE'] },
  // Cheques: a cheque number, a cheque deposit.
  {
    kind: 'cheque',
    words: [
      'cheque deposit', 'check deposit', 'mobile deposit', 'remote deposit', 'atm deposit', 'branch deposit', 'deposited check', 'deposited cheque',
      'deposited item', 'check paid', 'cheque paid', 'returned check', 'returned cheque', 'remise cheque', 'remise cheques', 'remise de cheque',
      'remise de cheques', 'cheque emis', 'versamento assegni', 'versamento assegno', 'ingreso cheque', 'scheck',
    ],
    stems: ['scheckein'],
    patterns: [/(?:^| )(?:check|cheque|chq|chk|cheq|assegno)(?: (?:no|nr|n|num|number))? \d{2,}/, /(?:^| )(?:check|chk|chq|cheque)\d{3,}\b/, /^deposit\b/],
  },
  // Pay: payroll, salary, wages (also the line of a business paying its payroll provider: see the docs).
  {
    kind: 'payroll',
    words: [
      'payroll', 'salary', 'salaries', 'wages', 'paycheck', 'direct dep', 'dir dep', 'direct deposit', 'gehalt', 'lohn', 'bezuge', 'bezuege',
      'salaire', 'salaires', 'paie', 'nomina', 'sueldo', 'stipendio', 'emolumenti', 'salaris', 'salario', 'palkka', 'wynagrodzenie',
    ],
  },
  { kind: 'payroll', words: ['loon'], countries: ['NL', 'BE'] },
  { kind: 'payroll', words: ['lon', 'lonn'], countries: ['SE', 'DK', 'NO'] },
];

/** Words that name a bank fee (or a payment app's own fee) when nothing on the line names a merchant. */
const FEE_WORDS = new Set([
  'fee', 'fees', 'charge', 'charges', 'chrg', 'gebuhr', 'gebuehr', 'gebuhren', 'gebuehren', 'entgelt', 'entgelte', 'frais', 'commission',
  'commissions', 'comision', 'comisiones', 'commissione', 'commissioni', 'spese', 'kosten', 'avgift', 'avgifter', 'gebyr', 'gebyrer', 'maksu',
  'cotisation', 'cotis', 'canone', 'competenze', 'oplata', 'prowizja',
]);

/** Words a bank's fee line is made of besides the fee word (with word-lists.ts GENERIC_WORDS). */
const FEE_CONTEXT = new Set([
  'month', 'mthly', 'yearly', 'quarterly', 'svc', 'maintenance', 'maint', 'account', 'acct', 'acc', 'od', 'returned', 'item', 'items',
  'international', 'intl', 'transactions', 'trans', 'txn', 'exchange', 'currency', 'conversion', 'fx', 'cross', 'border', 'non', 'sterling',
  'abm', 'wire', 'late', 'pmt', 'paper', 'statement', 'stmt', 'stop', 'replacement', 'minimum', 'min', 'balance', 'banking', 'reversal',
  'rebate', 'reversed', 'waiver', 'waived', 'adjustment', 'adj', 'advance', 'usage', 'plan', 'package', 'wise', 'konto', 'preis', 'fur', 'fuer',
  'karte', 'girocard', 'tenue', 'compte', 'bancaires', 'bancaire', 'carte', 'intervention', 'cb', 'mensuelle', 'mensuel', 'annuelle', 'cuenta',
  'mantenimiento', 'tarjeta', 'emision', 'anual', 'conto', 'tenuta', 'mensile', 'carta', 'trimestrale', 'rekening', 'betaalrekening',
  'betaalpakket', 'pakket', 'gebruik', 'kort', 'bank', 'bankkort', 'paypal', 'venmo', 'revolut', 'zelle', 'monzo',
]);

/** After an intermediary that also pays people: words of a top-up, a cash-out or a transfer, never a payee. */
const MOVEMENT_WORDS = new Set([
  'add', 'added', 'cash', 'money', 'funds', 'top', 'up', 'topup', 'transfer', 'instant', 'inst', 'standard', 'balance', 'bank', 'to', 'from',
  'send', 'sent', 'received', 'request', 'payment', 'pmt', 'out', 'in', 'deposit', 'card', 'visa', 'direct', 'web', 'id', 'ref',
]);

/**
 * Merchant category codes of lines that are no purchase (ISO 18245): 4829 money transfer (what a card-funded payment
 * to a person carries, whatever name follows the intermediary), 6010 cash at a bank counter, 6011 ATM cash.
 */
const NON_MERCHANT_MCC: Readonly<Record<string, NonMerchantKind>> = { '4829': 'transfer', '6010': 'cash', '6011': 'cash' };

/** A word that is a number or a reference code (it holds a digit): no rule reads it. */
const isCode = (word: string): boolean => /\d/.test(word);

function ruleHit(rule: Rule, line: string, lead: string, tokens: readonly string[], leadTokens: readonly string[]): string | null {
  const spaced = ` ${line} `;
  for (const words of rule.words ?? []) if (spaced.includes(` ${words} `)) return words;
  for (const stem of rule.stems ?? []) if (tokens.some((t) => t.includes(stem))) return stem;
  for (const pattern of rule.patterns ?? []) if (pattern.test(lead) || pattern.test(line)) return pattern.source;
  return rule.check?.(leadTokens) ?? null;
}

/** A fee word, and every other word a bank's: `MONTHLY SERVICE FEE`, `OVERDRAFT FEE REFUND`, `WISE FEE`; not `PRIME MEMBERSHIP FEE`. */
function feeLine(tokens: readonly string[]): string | null {
  const fee = tokens.find((t) => FEE_WORDS.has(t));
  if (!fee) return null;
  const bankOnly = tokens.every((t) => FEE_WORDS.has(t) || FEE_CONTEXT.has(t) || GENERIC_WORDS.has(t) || isCode(t) || t.length === 1);
  return bankOnly ? fee : null;
}

/** What the classifier reads of a transaction (transactions/merchant-matcher.ts TransactionInput). */
export interface StatementLine {
  /** The descriptor as sent. */
  transactionLabel: string;
  /** ISO 3166 alpha-2, upper case: enables the words that mean something else elsewhere. */
  countryCode: string;
  /** ISO 18245 merchant category code, four digits. */
  mcc?: string;
}

/** The line's kind when it names no merchant (a transfer, a fee, interest, cash, a cheque, pay), else null. */
export function nonMerchantLine({ transactionLabel, countryCode, mcc }: StatementLine): NonMerchantLine | null {
  const byMcc = mcc === undefined ? undefined : NON_MERCHANT_MCC[mcc];
  if (byMcc) return { kind: byMcc, rule: `mcc ${mcc}` };
  const upper = transactionLabel.normalize('NFKC').slice(0, MAX_LABEL_LENGTH).toUpperCase().replace(/\t/g, ' ').trim();
  const stripped = stripNoise(upper);
  const { processor, rest } = stripProcessor(stripped);
  // A checkout form is read after its prefix; otherwise noise words may belong to a rule (`ACH TRANSFER`, `APPLE PAY CASH`).
  const line = normalizeName(processor ? rest : upper);
  const lead = processor ? line : normalizeName(stripped);
  const tokens = line.split(' ').filter(Boolean);
  const leadTokens = lead.split(' ').filter(Boolean);
  if (processor?.p2p && tokens.every((t) => MOVEMENT_WORDS.has(t) || isCode(t))) return { kind: 'transfer', rule: `${processor.id} without a payee` };
  for (const rule of RULES) {
    if (rule.countries && !rule.countries.includes(countryCode)) continue;
    const hit = ruleHit(rule, line, lead, tokens, leadTokens);
    if (hit !== null) return { kind: rule.kind, rule: hit };
  }
  return null;
}
