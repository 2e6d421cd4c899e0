import { Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { pageAt, type PageName } from '#shared/pages.ts';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { AppShell } from './layout/app-shell.tsx';
import { lazyPage, type LazyPage } from './lazy-page.tsx';
import { ProtectedRoute } from './protected-route.tsx';

// Each screen is its own chunk, so the first load carries only the shell and the current page.
const AuthPage = lazyPage(() => import('./routes/auth.tsx').then((m) => m.AuthPage));
const ResetPasswordPage = lazyPage(() =>
  import('./routes/reset-password.tsx').then((m) => m.ResetPasswordPage),
);
const VerifyEmailPage = lazyPage(() =>
  import('./routes/verify-email.tsx').then((m) => m.VerifyEmailPage),
);
const HomePage = lazyPage(() => import('./routes/home.tsx').then((m) => m.HomePage));
const ProfilePage = lazyPage(() => import('./routes/profile.tsx').then((m) => m.ProfilePage));
const ChallengeDetailPage = lazyPage(() =>
  import('./routes/challenge-detail.tsx').then((m) => m.ChallengeDetailPage),
);
const PayoutsPage = lazyPage(() => import('./routes/payouts.tsx').then((m) => m.PayoutsPage));
const SandboxCryptoCheckoutPage = lazyPage(() =>
  import('./routes/sandbox-crypto-checkout.tsx').then((m) => m.SandboxCryptoCheckoutPage),
);
const PlayerPage = lazyPage(() => import('./routes/player.tsx').then((m) => m.PlayerPage));
const LeaderboardPage = lazyPage(() =>
  import('./routes/leaderboard.tsx').then((m) => m.LeaderboardPage),
);
const TournamentsPage = lazyPage(() =>
  import('./routes/tournaments.tsx').then((m) => m.TournamentsPage),
);
const TournamentDetailPage = lazyPage(() =>
  import('./routes/tournament-detail.tsx').then((m) => m.TournamentDetailPage),
);
const AdminPage = lazyPage(() => import('./routes/admin.tsx').then((m) => m.AdminPage));
const AdminPlayerPage = lazyPage(() =>
  import('./routes/admin-player.tsx').then((m) => m.AdminPlayerPage),
);
const PlayResponsiblyPage = lazyPage(() =>
  import('./routes/play-responsibly.tsx').then((m) => m.PlayResponsiblyPage),
);
const NotFoundPage = lazyPage(() => import('./routes/not-found.tsx').then((m) => m.NotFoundPage));

const PAGE_COMPONENTS: Record<PageName, LazyPage<never>> = {
  auth: AuthPage,
  resetPassword: ResetPasswordPage,
  verifyEmail: VerifyEmailPage,
  home: HomePage,
  profile: ProfilePage,
  challenge: ChallengeDetailPage,
  payouts: PayoutsPage,
  player: PlayerPage,
  leaderboard: LeaderboardPage,
  tournaments: TournamentsPage,
  tournament: TournamentDetailPage,
  admin: AdminPage,
  adminPlayer: AdminPlayerPage,
  playResponsibly: PlayResponsiblyPage,
  cryptoCheckout: SandboxCryptoCheckoutPage,
  notFound: NotFoundPage,
};

/**
 * Downloads the chunk of the page at `path`; resolves when it is in, or has failed (rendering the
 * page then meets the same rejected promise and reports it). The patterns of `pageAt` must match
 * the paths of the <Switch> below.
 */
export async function preloadPage(path: string): Promise<void> {
  await PAGE_COMPONENTS[pageAt(path)].preload().catch(() => undefined);
}

export function AppRoutes() {
  return (
    <AppShell>
      <Suspense fallback={<PageSpinner />}>
        <Switch>
          <Route path="/auth" component={AuthPage} />
          <Route path="/reset-password" component={ResetPasswordPage} />
          <Route path="/verify-email" component={VerifyEmailPage} />
          <Route path="/">
            <ProtectedRoute>{(user) => <HomePage user={user} />}</ProtectedRoute>
          </Route>
          <Route path="/profile">
            <ProtectedRoute>{(user) => <ProfilePage user={user} />}</ProtectedRoute>
          </Route>
          <Route path="/challenges/:id">
            {({ id }) => (
              <ProtectedRoute>
                {(user) => <ChallengeDetailPage id={id} user={user} />}
              </ProtectedRoute>
            )}
          </Route>
          <Route path="/payouts">
            <ProtectedRoute>{(user) => <PayoutsPage user={user} />}</ProtectedRoute>
          </Route>
          <Route path="/players/:username">
            {({ username }) => (
              <ProtectedRoute>
                {() => <PlayerPage key={username} username={username} />}
              </ProtectedRoute>
            )}
          </Route>
          <Route path="/leaderboard">
            <ProtectedRoute>{() => <LeaderboardPage />}</ProtectedRoute>
          </Route>
          <Route path="/tournaments">
            <ProtectedRoute>{(user) => <TournamentsPage user={user} />}</ProtectedRoute>
          </Route>
          <Route path="/tournaments/:id">
            {({ id }) => (
              <ProtectedRoute>
                {(user) => <TournamentDetailPage key={id} id={id} user={user} />}
              </ProtectedRoute>
            )}
          </Route>
          {/* Open to everyone: the help it gives matters most to someone who cannot sign in. */}
          <Route path="/play-responsibly" component={PlayResponsiblyPage} />
          <Route path="/admin">
            <ProtectedRoute>{(user) => <AdminPage user={user} />}</ProtectedRoute>
          </Route>
          <Route path="/admin/players/:id">
            {({ id }) => (
              <ProtectedRoute>{(user) => <AdminPlayerPage id={id} user={user} />}</ProtectedRoute>
            )}
          </Route>
          <Route path="/sandbox/crypto/:paymentId">
            {({ paymentId }) => (
              <ProtectedRoute>
                {() => <SandboxCryptoCheckoutPage paymentId={paymentId} />}
              </ProtectedRoute>
            )}
          </Route>
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
    </AppShell>
  );
}
