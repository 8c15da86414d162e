/**
 * Lines that name no merchant (issue 34, src/transactions/non-merchant-lines.ts): payments between people and
 * accounts, fees, interest, cash, cheques and pay, per market as statements print them, and the merchants (and
 * checkout forms) that must not be taken for them. Also who a facilitator's payee may be (transactions/payees.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseDescriptor } from '../../src/transactions/descriptor.js';
import { nonMerchantLine, type NonMerchantKind } from '../../src/transactions/non-merchant-lines.js';
import { admitPayees, looksLikePersonName, P2P_NAME_CONFIDENCE } from '../../src/transactions/payees.js';
import { PROCESSORS } from '../../src/transactions/processors.js';

type Line = readonly [label: string, countryCode: string];

function kindOf([label, countryCode]: Line, mcc?: string): NonMerchantKind | null {
  return nonMerchantLine({ transactionLabel: label, countryCode, mcc })?.kind ?? null;
}

function expectKind(kind: NonMerchantKind, lines: readonly Line[]): void {
  for (const line of lines) expect(kindOf(line), `${line[0]} [${line[1]}]`).toBe(kind);
}

describe('payments between people and accounts are transfers', () => {
  it('payment apps outside their checkout form: bank-funded payments, top-ups, cash-outs, their own fees', () => {
    expectKind('transfer', [
      ['PAYPAL', 'US'],
      ['PAYPAL INST XFER 1234567 WEB ID: PAYPALSI77', 'US'],
      ['ACH DEBIT PAYPAL ECHECK', 'US'],
      ['PAYPAL TRANSFER', 'GB'],
      ['PAYPAL *', 'US'],
      ['PAYPAL *INST XFER', 'US'],
      ['PP*TRANSFER', 'DE'],
      ['VENMO PAYMENT 1023456789 WEB ID: 3264681992', 'US'],
      ['VENMO CASHOUT PPD ID: 5264681992', 'US'],
      ['VENMO *CASH OUT', 'US'],
      ['ZELLE TO JANE DOE', 'US'],
      ['Zelle payment to John Smith Conf# abc123', 'US'],
      ['ZELLE FROM ACME PLUMBING LLC', 'US'],
      ['ONLINE TRANSFER TO JOHN SMITH ZELLE', 'US'],
      ['SQ *CASH APP JOHN SMITH', 'US'],
      ['CASH APP*CASH OUT', 'US'],
      ['CASH APP*ADD CASH', 'US'],
      ['APPLE CASH SENT MONEY', 'US'],
      ['APPLE CASH 1INFINITE LOOP CA', 'US'],
      ['APPLE PAY CASH TRANSFER', 'US'],
      ['GOOGLE PAY SEND JOHN', 'US'],
      ['GPAY TRANSFER 4321', 'IN'],
      ['REVOLUT**1234*', 'GB'],
      ['REVOLUT LTD TOP UP', 'IE'],
      ['TO REVOLUT JANE DOE', 'GB'],
      ['WISE', 'GB'],
      ['WISE.COM', 'GB'],
      ['WISE PAYMENTS LIMITED', 'GB'],
      ['Wise Europe SA 12345', 'BE'],
      ['TRANSFERWISE', 'US'],
      ['WESTERN UNION 123456', 'US'],
      ['MONEYGRAM TRANSFER', 'US'],
      ['REMITLY*MX 1234', 'US'],
      ['SATISPAY EUROPE', 'IT'],
      ['SATISPAY *', 'IT'],
      ['LYDIA', 'FR'],
      ['PAIEMENT LYDIA SOLUTIONS', 'FR'],
      ['PAYLIB ENTRE AMIS', 'FR'],
      ['TWINT SEND MONEY', 'CH'],
      ['MOBILEPAY JENS HANSEN', 'DK'],
      ['VIPPS OLA NORDMANN', 'NO'],
    ]);
  });

  it('bank transfer wording, market by market', () => {
    expectKind('transfer', [
      // US
      ['ONLINE TRANSFER TO SAV XXXX1234', 'US'],
      ['ONLINE TRANSFER FROM CHK 5678 REF #IB0ABCDEF', 'US'],
      ['ACH TRANSFER', 'US'],
      ['TRANSFER FROM CHECKING', 'US'],
      ['TRANSFER 1234567', 'US'],
      ['WIRE TRANSFER OUT', 'US'],
      ['WIRE TYPE:WIRE OUT DATE:240314', 'US'],
      ['INCOMING WIRE JOHN SMITH', 'US'],
      ['EXTERNAL XFER TO JANE', 'US'],
      ['PAYMENT THANK YOU', 'US'],
      // UK and Ireland
      ['FASTER PAYMENT J SMITH', 'GB'],
      ['J SMITH FPS', 'GB'],
      ['J SMITH RENT FPO', 'GB'],
      ['STANDING ORDER RENT', 'GB'],
      ['BACS ACME LTD', 'GB'],
      ['BGC ACME LTD', 'GB'],
      ['TFR 12345678 SAVINGS', 'GB'],
      // Germany, Austria, Switzerland
      ['SEPA-UEBERWEISUNG MAX MUSTERMANN', 'DE'],
      ['ÜBERWEISUNG MIETE', 'DE'],
      ['ECHTZEITUEBERWEISUNG ANNA SCHMIDT', 'DE'],
      ['DAUERAUFTRAG MIETE', 'AT'],
      ['UMBUCHUNG SPARKONTO', 'DE'],
      // France, Belgium
      ['VIR SEPA M DUPONT', 'FR'],
      ['VIR INST DE MARIE MARTIN', 'FR'],
      ['VIREMENT LOYER', 'FR'],
      ['VIREMENT EUROPEEN JEAN DUPONT', 'BE'],
      // Netherlands
      ['OVERSCHRIJVING J JANSEN', 'NL'],
      ['SEPA OVERBOEKING IBAN NL00BANK0123456789', 'NL'],
      ['TIKKIE ID 000123456', 'NL'],
      ['BETAALVERZOEK VAN P DE VRIES', 'NL'],
      // Spain, Portugal, Italy
      ['TRANSFERENCIA A FAVOR DE JUAN GARCIA', 'ES'],
      ['TRANSF INMEDIATA MARIA', 'ES'],
      ['TRASPASO CUENTA AHORRO', 'ES'],
      ['BIZUM ENVIADO A MARIA', 'ES'],
      ['MB WAY TRF JOAO', 'PT'],
      ['BONIFICO A FAVORE DI MARIO ROSSI', 'IT'],
      ['BONIFICO ISTANTANEO', 'IT'],
      ['GIROCONTO', 'IT'],
      // Canada, Australia, the Nordics, Poland, Brazil, Mexico, India, Singapore, South Africa
      ['INTERAC E-TRF 1234', 'CA'],
      ['SEND E-TFR ***ABC', 'CA'],
      ['E-TRANSFER AUTODEPOSIT', 'CA'],
      ['OSKO PAYMENT J CITIZEN', 'AU'],
      ['PAYID TRANSFER', 'AU'],
      ['BPAY TELSTRA', 'AU'],
      ['ANZ INTERNET BANKING FUNDS TFER', 'AU'],
      ['SWISH BETALNING', 'SE'],
      ['ÖVERFÖRING', 'SE'],
      ['OVERFØRSEL', 'DK'],
      ['TILISIIRTO', 'FI'],
      ['PRZELEW', 'PL'],
      ['PIX ENVIADO MARIA', 'BR'],
      ['SPEI ENVIADO', 'MX'],
      ['NEFT CR-HDFC0000123', 'IN'],
      ['PAYNOW TRANSFER', 'SG'],
    ]);
  });
});

describe('fees, interest, cash, cheques and pay', () => {
  it('cash from ATMs and counters, and cash advances', () => {
    expectKind('cash', [
      ['ATM WITHDRAWAL 1234 MAIN ST', 'US'],
      ['NON-CHASE ATM WITHDRAW 0314 NEW YORK', 'US'],
      ['SHELL ATM 1234', 'US'],
      ['NON-CHASE ATM FEE', 'US'],
      ['CASH ADVANCE', 'US'],
      ['CASH WITHDRAWAL LLOYDS BANK', 'GB'],
      ['ABM WITHDRAWAL', 'CA'],
      ['GELDAUTOMAT 1234 BERLIN', 'DE'],
      ['BARGELDAUSZAHLUNG', 'DE'],
      ['RETRAIT DAB 14/03 PARIS', 'FR'],
      ['REINTEGRO CAJERO', 'ES'],
      ['RETIRADA DE EFECTIVO', 'ES'],
      ['PRELIEVO BANCOMAT', 'IT'],
      ['GELDOPNAME', 'NL'],
      ['UTTAG BANKOMAT', 'SE'],
    ]);
  });

  it('bank fees, also refunded', () => {
    expectKind('fee', [
      ['MONTHLY SERVICE FEE', 'US'],
      ['OVERDRAFT FEE', 'US'],
      ['OVERDRAFT FEE REVERSAL', 'US'],
      ['FOREIGN TRANSACTION FEE', 'US'],
      ['LATE FEE', 'US'],
      ['NSF RETURNED ITEM', 'US'],
      ['NON-STERLING TRANSACTION FEE', 'GB'],
      ['KONTOFUEHRUNGSENTGELT', 'DE'],
      ['ENTGELT KONTOFÜHRUNG', 'DE'],
      ['FRAIS TENUE DE COMPTE', 'FR'],
      ['COTIS CARTE VISA', 'FR'],
      ['COMISION MANTENIMIENTO', 'ES'],
      ['SPESE TENUTA CONTO', 'IT'],
      ['KOSTEN BETAALPAKKET', 'NL'],
      ['WISE FEE', 'GB'],
      ['PAYPAL FEE', 'GB'],
      ['ATM FEE REFUND', 'US'],
    ]);
  });

  it('interest', () => {
    expectKind('interest', [
      ['INTEREST CHARGE ON PURCHASES', 'US'],
      ['INTEREST PAID', 'GB'],
      ['HABENZINSEN', 'DE'],
      ['AGIOS', 'FR'],
      ['INTERESES', 'ES'],
      ['RENTE', 'NL'],
      ['RÄNTA', 'SE'],
    ]);
  });

  it('cheques', () => {
    expectKind('cheque', [
      ['CHECK #1042', 'US'],
      ['CHECK 1042', 'US'],
      ['CHK NO 1042', 'US'],
      ['MOBILE DEPOSIT', 'US'],
      ['DEPOSIT ID NUMBER 123456', 'US'],
      ['CHQ 000123', 'GB'],
      ['CHEQUE 1234567', 'FR'],
      ['REMISE CHEQUE', 'FR'],
      ['ASSEGNO N 1234567', 'IT'],
    ]);
  });

  it('pay: payroll and salary', () => {
    expectKind('payroll', [
      ['ACME CORP PAYROLL', 'US'],
      ['ADP PAYROLL FEES', 'US'],
      ['DIRECT DEP ACME CORP', 'US'],
      ['SALARY ACME LTD', 'GB'],
      ['GEHALT MAERZ', 'DE'],
      ['LOHN/GEHALT', 'AT'],
      ['SALAIRE MARS', 'FR'],
      ['ABONO NOMINA', 'ES'],
      ['STIPENDIO', 'IT'],
      ['SALARIS', 'NL'],
      ['LÖN', 'SE'],
    ]);
  });

  it('a money-transfer, bank-counter or ATM MCC is no purchase, whatever the name', () => {
    expect(kindOf(['PAYPAL *SPOTIFY', 'US'], '4829')).toBe('transfer');
    expect(kindOf(['SHELL 5541', 'US'], '6011')).toBe('cash');
    expect(kindOf(['SHELL 5541', 'US'], '5541')).toBeNull();
  });
});

describe('merchants and checkout forms are not transfers', () => {
  it('a facilitator checkout is read after its prefix: the payee decides, not the intermediary', () => {
    for (const line of [
      ['PAYPAL *NETFLIX', 'US'],
      ['PAYPAL *JOHNSMITH', 'US'],
      ['PAYPAL *EBAY US', 'US'],
      ['VENMO *JANE DOE', 'US'],
      ['CASH APP*JOHN SMITH*4158523', 'US'],
      ['SQC*JOHN SMITH', 'US'],
      ['SATISPAY *BAR CENTRALE', 'IT'],
      ['GOOGLE *YouTubePremium', 'US'],
      ['SQ *BLUE BOTTLE COF 4', 'US'],
    ] as const) {
      expect(kindOf(line), line[0]).toBeNull();
    }
  });

  it('merchants whose names hold a rule word, card-network noise and look-alike words', () => {
    for (const line of [
      ['TRANSFER COFFEE', 'US'],
      ['AIRPORT TRANSFER SHUTTLE', 'US'],
      ['WISE GUYS PIZZA', 'US'],
      ['LYDIAS KITCHEN', 'FR'],
      ['CHECKCARD 0314 SAFEWAY #1234', 'US'],
      ['CHECK CARD 0314 SAFEWAY', 'US'],
      ['CHECKERS HYPER', 'ZA'],
      ['CHECK INTO CASH #123', 'US'],
      ['ATMOS ENERGY', 'US'],
      ['PINTEREST', 'US'],
      ['AMZN PRIME MEMBERSHIP FEE', 'US'],
      ['MARRIOTT DEPOSIT', 'US'],
      ['VIRGIN ACTIVE', 'GB'],
      ['APPLE.COM/BILL 866-712-7753 CA', 'US'],
      ['APPLE PAY STARBUCKS', 'US'],
      ['T-MOBILE*AUTO PAY', 'US'],
      ['AT&T*BILL PAYMENT 800-288-2020 TX', 'US'],
      ['BOOKER CASH & CARRY', 'GB'],
      ['CASH CONVERTERS', 'GB'],
      ['VODAFONE TOP UP', 'GB'],
      ['OTTO GMBH', 'DE'],
      ['ABM INDUSTRIES', 'US'],
      ['FPO SHIPPING', 'US'],
      ['VIR BIOTECHNOLOGY', 'US'],
      ['SWISH CAR WASH', 'US'],
      ['RENTE ESTATE AGENTS', 'GB'],
      ['TFL TRAVEL CH', 'GB'],
      ['DB VERTRIEB GMBH', 'DE'],
      ['SNCF INTERNET', 'FR'],
      ['PRLV SEPA FREE MOBILE', 'FR'],
      ['GUTSCHRIFT AMAZON EU', 'DE'],
    ] as const) {
      expect(kindOf(line), line[0]).toBeNull();
    }
  });
});

describe('facilitator prefixes of payment apps', () => {
  it.each([
    ['VENMO *JANE DOE', 'venmo', ['jane', 'doe']],
    ['CASH APP*JOHN SMITH*4158523', 'cashapp', ['john', 'smith']],
    ['SQC*CASH APP*JOHN SMITH', 'cashapp', ['john', 'smith']],
    ['SQC*JOHN SMITH', 'cashapp', ['john', 'smith']],
    ['SQ *BLUE BOTTLE COF 4', 'square', ['blue', 'bottle', 'cof']],
    ['PAYPAL *JOHNSMITH', 'paypal', ['johnsmith']],
  ])('%s: %s', (label, processor, words) => {
    const d = parseDescriptor(label, { countryCode: 'US' });
    expect(d.processor?.id).toBe(processor);
    expect(d.words).toEqual(words);
  });

  it('PayPal has no fallback: the intermediary is never the answer of what follows it', () => {
    const paypal = PROCESSORS.find((p) => p.id === 'paypal');
    expect(paypal?.p2p).toBe(true);
    expect(paypal?.fallback).toBeUndefined();
    for (const p of PROCESSORS) expect(p.id).toMatch(/^[a-z0-9]+$/);
  });
});

describe('a payee that looks like a person', () => {
  it.each([
    [['johnsmith']],
    [['mariagarcia']],
    [['john']],
    [['j', 'smith']],
    [['j', 'r', 'smith']],
    [['smith', 'j']],
    [['jane', 'doe']],
    [['maria', 'del', 'carmen']],
    [['mr', 'smith']],
    [['herr', 'max', 'mustermann']],
  ])('%j is a person', (words) => {
    expect(looksLikePersonName(words)).toBe(true);
  });

  it.each([
    [['netflix']],
    [['ebay', 'us']],
    [['spotify']],
    [['marketplace']],
    [['roblox']],
    [['aliexpress']],
    [['maxmara']],
    [['blue', 'bottle', 'cof']],
    [['rose', 'garden', 'cafe']],
    [['joes', 'pizza']],
    [['7', 'eleven']],
    [[]],
  ])('%j is not', (words) => {
    expect(looksLikePersonName(words)).toBe(false);
  });

  it('admits only curated candidates for a person, and strong names after an intermediary that pays people', () => {
    const paypal = PROCESSORS.find((p) => p.id === 'paypal') ?? null;
    const square = PROCESSORS.find((p) => p.id === 'square') ?? null;
    const instacart = PROCESSORS.find((p) => p.id === 'instacart') ?? null;
    const candidates = [
      { source: 'alias', confidence: 0.96 },
      { source: 'domain', confidence: 0.88 },
      { source: 'brand', confidence: 1 },
      { source: 'listing', confidence: P2P_NAME_CONFIDENCE - 0.01 },
    ];
    expect(admitPayees(paypal, ['john', 'lewis'], candidates).map((c) => c.source)).toEqual(['alias', 'domain']);
    expect(admitPayees(square, ['john', 'lewis'], candidates).map((c) => c.source)).toEqual(['alias', 'domain']);
    expect(admitPayees(paypal, ['monmouth'], candidates).map((c) => c.source)).toEqual(['alias', 'domain', 'brand']);
    expect(admitPayees(square, ['monmouth'], candidates)).toHaveLength(4);
    expect(admitPayees(instacart, ['john', 'lewis'], candidates)).toHaveLength(4);
    expect(admitPayees(null, ['john', 'lewis'], candidates)).toHaveLength(4);
  });
});
