import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ArrowLeft, SearchX, TriangleAlert } from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { Button } from '#client/components/ui/button.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { useChallenge } from '#client/features/challenges/api/get-challenge.ts';
import { ChallengeDetails } from '#client/features/challenges/components/challenge-details.tsx';
import { VoicePanel } from '#client/features/voice/components/voice-panel.tsx';

function parseChallengeId(raw: string): number | null {
  return /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
}

function BackLink() {
  return (
    <Button asChild variant="ghost" size="sm" className="mb-6 -ml-3">
      <Link href="/">
        <ArrowLeft aria-hidden="true" />
        ALL CHALLENGES
      </Link>
    </Button>
  );
}

/** /challenges/{id}: one challenge, or a clear not-found state for a bad or unknown id. */
export function ChallengeDetailPage({ id, user }: { id: string; user: PublicUser }) {
  const challengeId = parseChallengeId(id);
  const challenge = useChallenge(challengeId);

  let body: ReactNode;
  if (challengeId === null || challenge.data === null) {
    body = (
      <EmptyState
        icon={SearchX}
        title="Challenge not found"
        description="It may have been cancelled, or the link may be wrong."
      />
    );
  } else if (challenge.isPending) {
    body = <PageSpinner />;
  } else if (challenge.data === undefined) {
    body = (
      <EmptyState
        icon={TriangleAlert}
        title="Failed to fetch challenge"
        description="Please refresh the page to try again."
      />
    );
  } else {
    const data = challenge.data;
    const opponent = data.creatorId === user.id ? data.acceptor : data.creator;
    const isPlayer = data.creatorId === user.id || data.acceptorId === user.id;
    body = (
      <ChallengeDetails
        challenge={data}
        viewerId={user.id}
        voicePanel={
          isPlayer && opponent ? (
            <VoicePanel
              room={{ challengeId: data.id }}
              userId={user.id}
              isCreator={data.creatorId === user.id}
              opponentName={opponent.username}
            />
          ) : null
        }
      />
    );
  }

  return (
    <>
      <BackLink />
      <PageHeader
        eyebrow={`CHALLENGE #${challengeId ?? id}`}
        title={challenge.data ? challenge.data.game : 'CHALLENGE DETAILS'}
      />
      {body}
    </>
  );
}
