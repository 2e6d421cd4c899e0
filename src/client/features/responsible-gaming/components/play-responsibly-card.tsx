import { useId } from 'react';
import { Link } from 'wouter';
import { HeartHandshake } from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { playBreakMessage } from '#shared/play-breaks.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';

/** The profile's way to the "Play responsibly" page, with the break in force if there is one. */
export function PlayResponsiblyCard({ user }: { user: PublicUser }) {
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Play responsibly</CardTitle>
        <CardDescription>
          Set deposit limits, take a time-out or exclude yourself, and find help.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {user.playBreak && (
          <p className="text-sm text-amber-100">{playBreakMessage(user.playBreak)}</p>
        )}
        <Button asChild variant="outline">
          <Link href="/play-responsibly">
            <HeartHandshake aria-hidden="true" />
            LIMITS AND BREAKS
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
