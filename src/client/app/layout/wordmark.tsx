import { Link } from 'wouter';

/** The SKILLSTAKE wordmark, linking home: in the top bar and on the sign-in page. */
export function Wordmark() {
  return (
    <Link
      href="/"
      className="inline-block rounded-sm font-display text-lg font-black tracking-[0.12em] text-white sm:text-xl sm:tracking-[0.18em]"
    >
      SKILL<span className="text-accent">STAKE</span>
    </Link>
  );
}
