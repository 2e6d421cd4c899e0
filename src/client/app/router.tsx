import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { AppShell } from './layout/app-shell.tsx';
import { ProtectedRoute } from './protected-route.tsx';

// Each screen is its own chunk, so the first load carries only the shell and the current page.
const AuthPage = lazy(() => import('./routes/auth.tsx').then((m) => ({ default: m.AuthPage })));
const HomePage = lazy(() => import('./routes/home.tsx').then((m) => ({ default: m.HomePage })));
const ProfilePage = lazy(() =>
  import('./routes/profile.tsx').then((m) => ({ default: m.ProfilePage })),
);
const ChallengeDetailPage = lazy(() =>
  import('./routes/challenge-detail.tsx').then((m) => ({ default: m.ChallengeDetailPage })),
);
const PayoutsPage = lazy(() =>
  import('./routes/payouts.tsx').then((m) => ({ default: m.PayoutsPage })),
);
const SandboxCryptoCheckoutPage = lazy(() =>
  import('./routes/sandbox-crypto-checkout.tsx').then((m) => ({
    default: m.SandboxCryptoCheckoutPage,
  })),
);
const AdminPage = lazy(() => import('./routes/admin.tsx').then((m) => ({ default: m.AdminPage })));
const NotFoundPage = lazy(() =>
  import('./routes/not-found.tsx').then((m) => ({ default: m.NotFoundPage })),
);

export function AppRoutes() {
  return (
    <AppShell>
      <Suspense fallback={<PageSpinner />}>
        <Switch>
          <Route path="/auth" component={AuthPage} />
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
          <Route path="/admin">
            <ProtectedRoute>{(user) => <AdminPage user={user} />}</ProtectedRoute>
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
