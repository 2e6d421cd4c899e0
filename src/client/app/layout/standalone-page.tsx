import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ArrowLeft } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { Card } from '#client/components/ui/card.tsx';
import { useUser } from '#client/features/auth/api/get-user.ts';
import { Wordmark } from './wordmark.tsx';

export interface StandalonePageProps {
  title: string;
  description: ReactNode;
  children: ReactNode;
}

/**
 * A page opened from a mailed link, signed in or not: one narrow card under its heading, and a
 * way back to where the visitor would go next (the login, or the profile of a signed-in player).
 * Without a top bar, the wordmark leads home as it does on /auth.
 */
export function StandalonePage({ title, description, children }: StandalonePageProps) {
  const { user } = useUser();
  return (
    <div className="mx-auto w-full max-w-md space-y-6">
      <div className="space-y-3">
        {!user && <Wordmark />}
        {/* Focusable from script only: where focus lands when its control is gone for good. */}
        <h1
          tabIndex={-1}
          className="font-display text-2xl font-black tracking-wide text-white uppercase"
        >
          {title}
        </h1>
        <p className="text-slate-300">{description}</p>
      </div>
      <Card highlight className="space-y-5 p-5 sm:p-6">
        {children}
      </Card>
      <Button asChild variant="ghost" size="sm">
        <Link href={user ? '/profile' : '/auth'}>
          <ArrowLeft aria-hidden="true" />
          {user ? 'BACK TO PROFILE' : 'BACK TO LOGIN'}
        </Link>
      </Button>
    </div>
  );
}
