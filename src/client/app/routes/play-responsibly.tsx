import { Link } from 'wouter';
import { Globe, LogIn, Phone, TriangleAlert } from 'lucide-react';
import { HELPLINE } from '#shared/play-breaks.ts';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { useUser } from '#client/features/auth/api/get-user.ts';
import { useResponsibleGaming } from '#client/features/responsible-gaming/api/responsible-gaming.ts';
import { DepositLimitsCard } from '#client/features/responsible-gaming/components/deposit-limits-card.tsx';
import { HistoryCard } from '#client/features/responsible-gaming/components/history-card.tsx';
import { TakeABreakCard } from '#client/features/responsible-gaming/components/take-a-break-card.tsx';

/** Where to turn when play stops being fun: the helpline first, on every screen size. */
function HelpCard() {
  return (
    <Card highlight>
      <CardHeader>
        <CardTitle>Need to talk to someone?</CardTitle>
        <CardDescription>
          Free, confidential help, around the clock, from the National Council on Problem Gambling.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3 text-sm text-slate-200">
        <p>
          <a
            href={`tel:${HELPLINE.tel}`}
            className="inline-flex items-center gap-2 font-display text-lg font-bold tracking-wider text-accent underline-offset-4 hover:underline"
          >
            <Phone aria-hidden="true" className="size-5" />
            Call {HELPLINE.name}
          </a>
        </p>
        <p>Or chat with them and find help near you:</p>
        <p>
          <a
            href={HELPLINE.url}
            target="_blank"
            rel="noreferrer"
            className="inline-flex items-center gap-2 text-accent underline underline-offset-4"
          >
            <Globe aria-hidden="true" className="size-4" />
            1800gambler.net
          </a>
        </p>
        <p className="text-slate-300">
          Signs to watch for: playing to win back losses, staking more than you planned, or hiding
          how much you play.
        </p>
      </CardContent>
    </Card>
  );
}

/**
 * /play-responsibly (docs/responsible-play.md): help, the player's deposit limits with what they
 * leave, a time-out or self-exclusion, and the history of every change.
 */
export function PlayResponsiblyPage() {
  const { user } = useUser();
  return (
    <>
      <PageHeader
        eyebrow="YOUR LIMITS"
        title="PLAY RESPONSIBLY"
        description="Skill games are for fun. These tools keep them that way; use them any time."
      />
      <div className="grid gap-6 lg:grid-cols-3 lg:items-start">
        <div className="space-y-6">
          <HelpCard />
        </div>
        <div className="space-y-6 lg:col-span-2">{user ? <PlayerTools /> : <SignInForTools />}</div>
      </div>
    </>
  );
}

/** A visitor sees the help; the tools are the signed-in player's own. */
function SignInForTools() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your limits and breaks</CardTitle>
        <CardDescription>
          Signed in, you can cap your deposits per day, week and month, take a time-out of 24 hours
          to 30 days, or exclude yourself for 6 months to 5 years.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline">
          <Link href="/auth">
            <LogIn aria-hidden="true" />
            SIGN IN
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function PlayerTools() {
  const rules = useResponsibleGaming();
  return rules.isPending ? (
    <PageSpinner />
  ) : rules.isError ? (
    <EmptyState
      icon={TriangleAlert}
      title="ERROR LOADING YOUR LIMITS"
      description="PLEASE REFRESH THE PAGE TO TRY AGAIN"
    />
  ) : (
    <>
      <DepositLimitsCard key={JSON.stringify(rules.data.limits)} rules={rules.data} />
      <TakeABreakCard rules={rules.data} />
      <HistoryCard rules={rules.data} />
    </>
  );
}
