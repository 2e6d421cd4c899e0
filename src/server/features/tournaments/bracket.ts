import { createHash, randomBytes } from 'node:crypto';

/** A fresh seed for a tournament's draw: 32 random bytes as hex, recorded on the tournament. */
export function newSeed(): string {
  return randomBytes(32).toString('hex');
}

/**
 * The players in the order the seed draws them: a Fisher–Yates shuffle whose every pick is
 * SHA-256 of the seed and the step, so anyone with the seed and the entries (sorted by entry id)
 * can draw the same bracket again. The modulo bias of a 256-bit number is below 2^-240.
 */
export function seededOrder<T>(items: readonly T[], seed: string): T[] {
  const order = [...items];
  for (let i = order.length - 1; i > 0; i -= 1) {
    const digest = createHash('sha256').update(`${seed}:${i}`).digest('hex');
    const j = Number(BigInt(`0x${digest}`) % BigInt(i + 1));
    const picked = order[j] as T;
    order[j] = order[i] as T;
    order[i] = picked;
  }
  return order;
}

/** The bracket's width: the smallest power of two that holds every player, at least 2. */
export function bracketSize(players: number): number {
  let size = 2;
  while (size < players) size *= 2;
  return size;
}

export function roundsOf(size: number): number {
  return Math.log2(size);
}

export interface FirstRoundMatch {
  slot: number;
  playerAId: number;
  /** Null for a bye: the first player goes through. */
  playerBId: number | null;
}

/**
 * Round 1 of a bracket for players in drawn order: the first half of the order are the top
 * players of the matches, the rest the bottom ones. With fewer players than the bracket's width,
 * the last matches have no bottom player (a bye), and since more than half the width is taken,
 * every match has a top player.
 */
export function firstRound(drawn: readonly number[]): FirstRoundMatch[] {
  const half = bracketSize(drawn.length) / 2;
  return Array.from({ length: half }, (_, slot) => {
    const playerAId = drawn[slot];
    if (playerAId === undefined) throw new Error('a bracket is more than half full');
    return { slot, playerAId, playerBId: drawn[half + slot] ?? null };
  });
}

/** Where the winner of a match plays next: the next round's slot, top or bottom. */
export function nextPosition(slot: number): { slot: number; side: 'a' | 'b' } {
  return { slot: Math.floor(slot / 2), side: slot % 2 === 0 ? 'a' : 'b' };
}

/**
 * The places a loser of `round` shares in a bracket of `width`: the final's loser is 2nd, the
 * semi-finals' are 3rd–4th, the quarter-finals' 5th–8th, and so on.
 */
export function placesOfLoser(round: number, width: number): { first: number; span: number } {
  const span = width / 2 ** round;
  return { first: span + 1, span };
}

export interface PlacePrize {
  userId: number;
  place: number;
  prizeCents: bigint;
}

/**
 * The payout by place (docs/tournaments.md, decision 0020). Players who lost in the same round
 * share the percentages of the places they span equally: each gets `net × (sum of those
 * percentages) / (100 × span)`, rounded down to the cent. The champion gets the rest: their own
 * percentage, every cent the rounding left, and the shares of places nobody holds (byes). So the
 * shares always add up to `netCents` exactly.
 */
export function placePrizes(input: {
  netCents: bigint;
  split: readonly number[];
  width: number;
  championId: number;
  /** Each other player and the round they lost in. */
  losers: ReadonlyArray<{ userId: number; round: number }>;
}): PlacePrize[] {
  const prizes: PlacePrize[] = [];
  let paidCents = 0n;
  for (const { userId, round } of input.losers) {
    const { first, span } = placesOfLoser(round, input.width);
    let percent = 0;
    for (let place = first; place < first + span; place += 1) {
      percent += input.split[place - 1] ?? 0;
    }
    const prizeCents = (input.netCents * BigInt(percent)) / (100n * BigInt(span));
    paidCents += prizeCents;
    prizes.push({ userId, place: first, prizeCents });
  }
  return [
    { userId: input.championId, place: 1, prizeCents: input.netCents - paidCents },
    ...prizes,
  ];
}
