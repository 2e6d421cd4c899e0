import { useMemo, useRef, useState, type MouseEvent, type Ref } from 'react';
import { Link } from 'wouter';
import type { LucideIcon } from 'lucide-react';
import {
  CircleCheck,
  Gamepad2,
  Headphones,
  Medal,
  Plus,
  Swords,
  Trophy,
  LockKeyhole,
  Zap,
} from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { Button } from '#client/components/ui/button.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#client/components/ui/tabs.tsx';
import { useChallengeCounts } from '#client/features/challenges/api/get-challenge-counts.ts';
import type { ChallengeListFilter } from '#client/features/challenges/api/get-challenges.ts';
import { ChallengeGrid } from '#client/features/challenges/components/challenge-grid.tsx';
import { CreateChallengeDialog } from '#client/features/challenges/components/create-challenge-dialog.tsx';
import { LobbyFilterBar } from '#client/features/challenges/components/lobby-filter-bar.tsx';
import { useLobbyFilters } from '#client/features/challenges/hooks/use-lobby-filters.ts';
import {
  hasLobbyFilters,
  type LobbyFilters,
} from '#client/features/challenges/lib/lobby-filters.ts';

/** Each tab's list with the lobby's filters: part of its cache key, so kept stable. */
function useTabFilters(lobby: LobbyFilters) {
  return useMemo(() => {
    const filters = hasLobbyFilters(lobby) ? { lobby } : {};
    return {
      available: { status: 'open', ...filters } satisfies ChallengeListFilter,
      active: { status: 'accepted', role: 'mine', ...filters } satisfies ChallengeListFilter,
      completed: {
        status: ['completed', 'disputed'],
        role: 'mine',
        ...filters,
      } satisfies ChallengeListFilter,
    };
  }, [lobby]);
}

const NOTHING_MATCHES =
  'Nothing here matches these filters. Try a wider stake range or another game.';

const BANNER_POINTS: readonly { icon: LucideIcon; text: string }[] = [
  { icon: LockKeyhole, text: 'Both stakes held in escrow until the match is settled' },
  { icon: Trophy, text: 'Winner takes the pot, minus a 5% fee' },
  { icon: Headphones, text: 'Voice chat with your opponent on every match' },
  { icon: Gamepad2, text: 'Xbox, PlayStation, PC and more' },
];

/** An account this young is greeted as new: "WELCOME", not "WELCOME BACK". */
const NEW_ACCOUNT_MS = 24 * 60 * 60 * 1000;

/** "WELCOME, ACE" on a new account's first day, "WELCOME BACK, ACE" after. */
export function greetingOf(username: string, createdAt: string, now = Date.now()): string {
  const isNew = now - new Date(createdAt).getTime() < NEW_ACCOUNT_MS;
  return `${isNew ? 'WELCOME' : 'WELCOME BACK'}, ${username.toUpperCase()}`;
}

function Banner({
  greeting,
  onCreate,
  onQuickMatch,
  createButtonRef,
}: {
  greeting: string;
  onCreate: (event: MouseEvent<HTMLButtonElement>) => void;
  onQuickMatch: (event: MouseEvent<HTMLButtonElement>) => void;
  createButtonRef: Ref<HTMLButtonElement>;
}) {
  return (
    <section className="relative mb-10 overflow-hidden rounded-2xl border border-accent/30 bg-linear-to-br from-ink-800 via-ink-850 to-ink-900 p-6 sm:p-10">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-24 -right-24 size-72 rounded-full bg-accent/20 blur-3xl"
      />
      <div className="relative grid gap-8 lg:grid-cols-[1fr_auto] lg:items-end">
        <div className="space-y-5">
          <p className="font-display text-xs font-semibold tracking-[0.3em] break-words text-accent">
            {greeting}
          </p>
          {/* Focusable from script only, as PageHeader's heading is. */}
          <h1
            tabIndex={-1}
            className="font-display text-3xl leading-tight font-black tracking-wide text-white sm:text-4xl"
          >
            SKILL CHALLENGES
          </h1>
          <p className="max-w-2xl text-slate-300">
            Pick a game, set your stake and call out the competition, or accept an open challenge
            and prove you are the better player.
          </p>
          <ul className="grid gap-3 sm:grid-cols-2">
            {BANNER_POINTS.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-3 text-sm text-slate-200">
                <Icon aria-hidden="true" className="size-5 shrink-0 text-accent" />
                {text}
              </li>
            ))}
          </ul>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap lg:grid lg:grid-cols-2">
          <Button ref={createButtonRef} size="lg" onClick={onCreate}>
            <Plus aria-hidden="true" />
            Create Challenge
          </Button>
          <Button size="lg" variant="outline" onClick={onQuickMatch}>
            <Zap aria-hidden="true" />
            QUICK MATCH
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link href="/leaderboard">
              <Trophy aria-hidden="true" />
              LEADERBOARD
            </Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link href="/tournaments">
              <Medal aria-hidden="true" />
              TOURNAMENTS
            </Link>
          </Button>
        </div>
      </div>
    </section>
  );
}

/** "Completed (3)"; the count wraps under the word on a narrow phone instead of being cut. */
function TabLabel({ label, count }: { label: string; count: number | undefined }) {
  return (
    <span className="flex flex-col items-center leading-tight min-[420px]:flex-row min-[420px]:gap-1">
      <span>{label}</span>
      {count !== undefined && (
        <>
          {' '}
          <span className="tabular-nums">({count})</span>
        </>
      )}
    </span>
  );
}

/** /: the challenge lobby: open challenges, the viewer's active matches and finished ones. */
export function HomePage({ user }: { user: PublicUser }) {
  const [createOpen, setCreateOpen] = useState(false);
  // One dialog, two uses: a challenge with every field, or quick match's terms
  // (docs/challenges.md#finding-an-opponent).
  const [intent, setIntent] = useState<'create' | 'quick-match'>('create');
  const bannerCreateButton = useRef<HTMLButtonElement>(null);
  const createOpener = useRef<HTMLElement | null>(null);
  const openDialog = (event: MouseEvent<HTMLButtonElement>, next: 'create' | 'quick-match') => {
    createOpener.current = event.currentTarget;
    setIntent(next);
    setCreateOpen(true);
  };
  const openCreate = (event: MouseEvent<HTMLButtonElement>) => openDialog(event, 'create');
  const openQuickMatch = (event: MouseEvent<HTMLButtonElement>) => openDialog(event, 'quick-match');
  // The dialog has no trigger of its own: focus goes back to the button that opened it, or to
  // the banner's when that one is gone (the empty list's button, once a challenge exists).
  const returnFocusFromCreate = (event: Event) => {
    event.preventDefault();
    const opener = createOpener.current;
    (opener?.isConnected ? opener : bannerCreateButton.current)?.focus();
  };
  const [lobby, setLobby] = useLobbyFilters();
  const filtered = hasLobbyFilters(lobby);
  const tabs = useTabFilters(lobby);
  const counts = useChallengeCounts(lobby);

  return (
    <>
      <Banner
        greeting={greetingOf(user.username, user.createdAt)}
        onCreate={openCreate}
        onQuickMatch={openQuickMatch}
        createButtonRef={bannerCreateButton}
      />
      <LobbyFilterBar filters={lobby} onChange={setLobby} />
      <Tabs defaultValue="available">
        <TabsList aria-label="Challenges" className="sm:max-w-xl">
          <TabsTrigger value="available">
            <TabLabel label="Available" count={counts.data?.available} />
          </TabsTrigger>
          <TabsTrigger value="active">
            <TabLabel label="Active" count={counts.data?.active} />
          </TabsTrigger>
          <TabsTrigger value="completed">
            <TabLabel label="Completed" count={counts.data?.completed} />
          </TabsTrigger>
        </TabsList>
        <TabsContent value="available">
          <ChallengeGrid
            filter={tabs.available}
            viewerId={user.id}
            label="Available challenges"
            empty={
              <EmptyState
                icon={Swords}
                title="NO AVAILABLE CHALLENGES"
                description={
                  filtered
                    ? NOTHING_MATCHES
                    : 'No open challenges right now. Set one up and let an opponent come to you.'
                }
                action={
                  <Button onClick={openCreate}>
                    <Plus aria-hidden="true" />
                    Create Challenge
                  </Button>
                }
              />
            }
          />
        </TabsContent>
        <TabsContent value="active">
          <ChallengeGrid
            filter={tabs.active}
            viewerId={user.id}
            label="Active challenges"
            empty={
              <EmptyState
                icon={Zap}
                title="NO ACTIVE CHALLENGES"
                description={
                  filtered
                    ? NOTHING_MATCHES
                    : 'Accepted challenges waiting to be played show up here.'
                }
              />
            }
          />
        </TabsContent>
        <TabsContent value="completed">
          <ChallengeGrid
            filter={tabs.completed}
            viewerId={user.id}
            label="Completed challenges"
            empty={
              <EmptyState
                icon={CircleCheck}
                title="NO COMPLETED CHALLENGES"
                description={
                  filtered ? NOTHING_MATCHES : 'Finished matches and their winners show up here.'
                }
              />
            }
          />
        </TabsContent>
      </Tabs>
      <CreateChallengeDialog
        open={createOpen}
        onOpenChange={setCreateOpen}
        onCloseAutoFocus={returnFocusFromCreate}
        defaultPhoneNumber={user.phoneNumber}
        available={user.available}
        intent={intent}
      />
    </>
  );
}
