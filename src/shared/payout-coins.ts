/**
 * The coins a payout can be sent in (docs/payouts.md), as NOWPayments names them. Each knows how
 * its addresses are written, whether a withdrawal to it needs a memo or destination tag, and where
 * a transaction can be looked up. The formats are the coins' own: the sandbox checks an address
 * against them, the real provider's validation comes on top on the server.
 */
export interface PayoutCoin {
  code: string;
  /** What the player reads in the coin select. */
  label: string;
  /** The address written as the coin writes it. */
  address: RegExp;
  /** A memo or destination tag the withdrawal carries, when the coin needs one. */
  memo: { label: string; pattern: RegExp } | null;
  /** The public page of a transaction, given its hash. */
  explorer: (hash: string) => string;
}

const BASE58 = '[1-9A-HJ-NP-Za-km-z]';
const BECH32 = '[02-9ac-hj-np-z]';

export const PAYOUT_COINS: readonly PayoutCoin[] = [
  {
    code: 'usdttrc20',
    label: 'USDT (TRON)',
    address: new RegExp(`^T${BASE58}{33}$`),
    memo: null,
    explorer: (hash) => `https://tronscan.org/#/transaction/${hash}`,
  },
  {
    code: 'btc',
    label: 'Bitcoin (BTC)',
    address: new RegExp(`^(bc1${BECH32}{11,71}|[13]${BASE58}{25,34})$`),
    memo: null,
    explorer: (hash) => `https://mempool.space/tx/${hash}`,
  },
  {
    code: 'eth',
    label: 'Ether (ETH)',
    address: /^0x[0-9a-fA-F]{40}$/,
    memo: null,
    explorer: (hash) => `https://etherscan.io/tx/${hash}`,
  },
  {
    code: 'ltc',
    label: 'Litecoin (LTC)',
    address: new RegExp(`^(ltc1${BECH32}{11,71}|[LM3]${BASE58}{26,33})$`),
    memo: null,
    explorer: (hash) => `https://litecoinspace.org/tx/${hash}`,
  },
  {
    code: 'usdterc20',
    label: 'USDT (Ethereum)',
    address: /^0x[0-9a-fA-F]{40}$/,
    memo: null,
    explorer: (hash) => `https://etherscan.io/tx/${hash}`,
  },
  {
    code: 'xrp',
    label: 'XRP',
    address: new RegExp(`^r${BASE58}{24,34}$`),
    memo: { label: 'Destination tag', pattern: /^\d{1,10}$/ },
    explorer: (hash) => `https://xrpscan.com/tx/${hash}`,
  },
  {
    code: 'xlm',
    label: 'Stellar (XLM)',
    address: /^G[A-Z2-7]{55}$/,
    memo: { label: 'Memo', pattern: /^[\x20-\x7e]{1,28}$/ },
    explorer: (hash) => `https://stellar.expert/explorer/public/tx/${hash}`,
  },
];

export const PAYOUT_COIN_CODES = PAYOUT_COINS.map((coin) => coin.code);

export function findPayoutCoin(code: string): PayoutCoin | undefined {
  return PAYOUT_COINS.find((coin) => coin.code === code);
}

export const PAYOUT_ADDRESS_MESSAGES = {
  coinRequired: 'Please choose a coin',
  coinNotOffered: 'Payouts are not offered in this coin',
  addressRequired: 'Please enter the address',
  addressTooLong: 'The address is too long',
  memoTooLong: 'The memo is too long',
  addressInvalid: (coin: PayoutCoin) => `This is not a valid ${coin.label} address.`,
  memoRequired: (coin: PayoutCoin) => `${coin.memo?.label ?? 'Memo'} is required for ${coin.label}`,
  memoInvalid: (coin: PayoutCoin) =>
    `This is not a valid ${coin.memo?.label.toLowerCase() ?? 'memo'}`,
  memoNotUsed: (coin: PayoutCoin) => `${coin.label} payouts take no memo`,
} as const;

export type AddressProblem = { field: 'currency' | 'address' | 'extraId'; message: string };

/** What is wrong with a destination by the coin's own format, or null when nothing is. */
export function checkPayoutDestination(destination: {
  currency: string;
  address: string;
  extraId?: string | null | undefined;
}): AddressProblem | null {
  const coin = findPayoutCoin(destination.currency);
  if (!coin) return { field: 'currency', message: PAYOUT_ADDRESS_MESSAGES.coinNotOffered };
  if (destination.address === '') {
    return { field: 'address', message: PAYOUT_ADDRESS_MESSAGES.addressRequired };
  }
  if (!coin.address.test(destination.address)) {
    return { field: 'address', message: PAYOUT_ADDRESS_MESSAGES.addressInvalid(coin) };
  }
  const memo = destination.extraId ?? '';
  if (coin.memo === null) {
    return memo === ''
      ? null
      : { field: 'extraId', message: PAYOUT_ADDRESS_MESSAGES.memoNotUsed(coin) };
  }
  if (memo === '') return { field: 'extraId', message: PAYOUT_ADDRESS_MESSAGES.memoRequired(coin) };
  if (!coin.memo.pattern.test(memo)) {
    return { field: 'extraId', message: PAYOUT_ADDRESS_MESSAGES.memoInvalid(coin) };
  }
  return null;
}
