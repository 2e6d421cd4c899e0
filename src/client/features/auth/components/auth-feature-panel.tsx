import type { LucideIcon } from 'lucide-react';
import { Bitcoin, Coins, Headphones, ShieldCheck, LockKeyhole, Zap } from 'lucide-react';

interface Feature {
  icon: LucideIcon;
  title: string;
  body: string;
}

const FEATURES: readonly Feature[] = [
  {
    icon: LockKeyhole,
    title: 'ESCROWED STAKES',
    body: 'Both stakes lock in escrow the moment a challenge is accepted. Nobody walks off with the pot.',
  },
  {
    icon: Zap,
    title: 'INSTANT PAYOUTS',
    body: 'Win and the pot lands in your balance right away, minus a flat 5% fee. No waiting, no haggling.',
  },
  {
    icon: Headphones,
    title: 'VOICE CHAT BUILT IN',
    body: 'Talk to your opponent on every match. Sort out the rules, call the game, keep it honest.',
  },
  {
    icon: Coins,
    title: 'GOLD & BLUE COINS',
    body: 'Every dollar you deposit converts 1 to 1 into Gold Coins and Blue Coins. Stake them on your skill.',
  },
  {
    icon: Bitcoin,
    title: 'CRYPTO PAYOUTS',
    body: 'Redeem your Blue Coins for crypto whenever you like, straight to your own wallet.',
  },
  {
    icon: ShieldCheck,
    title: '21+ ONLY',
    body: 'Real stakes need real grown-ups: every player confirms they are 21 or older and in a permitted location.',
  },
];

/** The marketing side of the auth page: what a new player gets (docs/product.md#what-it-does). */
export function AuthFeaturePanel() {
  return (
    <section aria-labelledby="auth-features-heading" className="space-y-8">
      <div className="space-y-4">
        <p className="font-display text-xs font-semibold tracking-[0.3em] text-accent">
          PEER-TO-PEER SKILL GAMING
        </p>
        <h2
          id="auth-features-heading"
          className="font-display text-3xl leading-tight font-black tracking-wide text-white sm:text-4xl"
        >
          PLAY FOR REAL.
          <br />
          <span className="bg-linear-to-r from-accent to-accent-2 bg-clip-text text-transparent">
            GET PAID FOR SKILL.
          </span>
        </h2>
        <p className="max-w-lg text-base text-slate-300">
          Challenge players on Xbox, PlayStation and PC. Put coins on the line, play the match, post
          your score and collect the pot. Your skill is the only edge.
        </p>
      </div>
      <ul className="grid gap-4 sm:grid-cols-2">
        {FEATURES.map(({ icon: Icon, title, body }) => (
          <li key={title} className="flex gap-3 rounded-lg border border-ink-700 bg-ink-900/60 p-4">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-md bg-accent/15 text-accent">
              <Icon aria-hidden="true" className="size-5" />
            </span>
            <div className="space-y-1">
              <h3 className="font-display text-xs font-bold tracking-widest text-white">{title}</h3>
              <p className="text-sm text-slate-300">{body}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
