import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { useUser } from '#client/features/auth/api/get-user.ts';

/**
 * docs/product.md#screens: while the user loads a centred spinner shows, with a user the page
 * renders, otherwise the visitor goes to /auth. The page receives the user, so it never has to
 * handle "signed out".
 */
export function ProtectedRoute({ children }: { children: (user: PublicUser) => ReactNode }) {
  const { user, isLoading } = useUser();
  if (isLoading) return <PageSpinner />;
  if (!user) return <Redirect to="/auth" replace />;
  return children(user);
}
