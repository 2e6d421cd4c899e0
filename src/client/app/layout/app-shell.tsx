import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { HELPLINE } from '#shared/play-breaks.ts';
import { ScreenSpinner } from '#client/components/ui/spinner.tsx';
import { useUser } from '#client/features/auth/api/get-user.ts';
import { SubmittedResultsProvider } from '#client/features/challenges/components/results-modal.tsx';
import { useAccountRealtime } from '../use-account-realtime.ts';
import { ScrollControls } from './scroll-controls.tsx';
import { MoneyLockBanner, PlayBreakBanner, SuspensionBanner } from './suspension-banner.tsx';
import { TopBar } from './top-bar.tsx';
import { useRefreshWhenPauseEnds } from './use-refresh-when-pause-ends.ts';

/**
 * Purple on /auth, cyan everywhere else (docs/product.md#what-it-does). The theme goes on <html> so
 * that portalled dialogs, menus and toasts share it, and it is set before paint so /auth never
 * flashes cyan.
 */
function useThemeForPath(path: string): void {
  const theme = path === '/auth' ? 'auth' : 'app';
  useLayoutEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
}

/**
 * A client-side navigation should land at the top of the new page, as a full page load does. The
 * first render is skipped so that a reload keeps the browser's restored scroll position.
 */
function useScrollToTopOnNavigate(path: string): void {
  const previousPath = useRef(path);
  useEffect(() => {
    if (previousPath.current === path) return;
    previousPath.current = path;
    window.scrollTo({ top: 0 });
  }, [path]);
}

/** A footer link is never broken at its hyphens: it reads, and takes the focus, as one piece. */
const FOOTER_LINK =
  'rounded-sm whitespace-nowrap text-slate-300 underline underline-offset-4 hover:text-accent';

function Footer() {
  return (
    <footer className="border-t border-ink-800 bg-ink-950/70">
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-6 text-xs text-slate-400 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>
          <span className="font-display font-bold tracking-widest text-slate-300">SKILLSTAKE</span>{' '}
          © {new Date().getFullYear()}. Skill-based competition for players 21+ in permitted
          locations.
        </p>
        <p>
          <Link href="/play-responsibly" className={FOOTER_LINK}>
            Play responsibly
          </Link>
          . Only stake what you can afford to lose. Help:{' '}
          <a href={`tel:${HELPLINE.tel}`} className={FOOTER_LINK}>
            {HELPLINE.name}
          </a>
        </p>
        {/* Where cash play is allowed is checked with DB-IP's data, whose licence (CC BY 4.0)
            asks for this credit on the pages that use it. */}
        <p>
          <a href="https://db-ip.com" className={FOOTER_LINK}>
            IP Geolocation by DB-IP
          </a>
        </p>
      </div>
    </footer>
  );
}

/**
 * The page shell: top bar for signed-in users, the page, the footer and the scroll aids. Until
 * the session is known it is only a spinner, since the top bar depends on it.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const { user, isKnown } = useUser();
  useAccountRealtime(user?.id ?? null);
  useRefreshWhenPauseEnds(user);
  useThemeForPath(location);
  useScrollToTopOnNavigate(location);

  if (!isKnown) return <ScreenSpinner />;

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-accent px-4 py-2 font-display text-xs font-bold text-accent-contrast focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      {user && <TopBar user={user} />}
      {user?.suspension && <SuspensionBanner suspension={user.suspension} />}
      {user?.playBreak && !user.suspension && <PlayBreakBanner playBreak={user.playBreak} />}
      {user?.moneyLock && <MoneyLockBanner lock={user.moneyLock} debt={user.debt} />}
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 outline-none sm:px-6 sm:py-10"
      >
        <SubmittedResultsProvider>{children}</SubmittedResultsProvider>
      </main>
      <Footer />
      <ScrollControls />
    </div>
  );
}
