import { Inbox, Swords, TriangleAlert } from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { BalanceFigure } from '#client/components/ui/balance.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#client/components/ui/tabs.tsx';
import { formatMonthYear } from '#client/lib/format.ts';
import { useChallengeCounts } from '#client/features/challenges/api/get-challenge-counts.ts';
import type { ChallengeListFilter } from '#client/features/challenges/api/get-challenges.ts';
import { ChallengeGrid } from '#client/features/challenges/components/challenge-grid.tsx';
import { TransactionsCard } from '#client/features/wallet/components/transactions-card.tsx';
import { DepositFundsDialog } from '#client/features/deposits/components/deposit-funds-dialog.tsx';
import { CloseAccountCard } from '#client/features/profile/components/close-account-card.tsx';
import { ContactInfoCard } from '#client/features/profile/components/contact-info-card.tsx';
import { DevicesCard } from '#client/features/profile/components/devices-card.tsx';
import { FreeSiteCard } from '#client/features/profile/components/free-site-card.tsx';
import { IdVerificationCard } from '#client/features/profile/components/id-verification-card.tsx';
import { LocationCard } from '#client/features/profile/components/location-card.tsx';
import { MyDataCard } from '#client/features/profile/components/my-data-card.tsx';
import { PasswordCard } from '#client/features/profile/components/password-card.tsx';
import { TwoFactorCard } from '#client/features/profile/components/two-factor-card.tsx';
import { PlayResponsiblyCard } from '#client/features/responsible-gaming/components/play-responsibly-card.tsx';

const CREATED: ChallengeListFilter = { role: 'created' };
const ACCEPTED: ChallengeListFilter = { role: 'accepted' };

const LOAD_ERROR = (
  <EmptyState
    icon={TriangleAlert}
    title="ERROR LOADING CHALLENGE DATA"
    description="PLEASE REFRESH THE PAGE TO TRY AGAIN"
  />
);

const withCount = (label: string, count: number | undefined) =>
  count === undefined ? label : `${label} (${count})`;

/**
 * docs/product.md#screens: the challenges this player created and accepted, whatever their status.
 */
function MyChallengesCard({ viewerId }: { viewerId: number }) {
  const counts = useChallengeCounts();
  return (
    <Card>
      <CardHeader>
        <CardTitle>My Challenges</CardTitle>
        <CardDescription>Challenges you have created or accepted.</CardDescription>
      </CardHeader>
      <CardContent>
        {counts.isError ? (
          LOAD_ERROR
        ) : (
          <Tabs defaultValue="created">
            <TabsList aria-label="My challenges" className="sm:max-w-sm">
              <TabsTrigger value="created">
                {withCount('Created', counts.data?.created)}
              </TabsTrigger>
              <TabsTrigger value="accepted">
                {withCount('Accepted', counts.data?.accepted)}
              </TabsTrigger>
            </TabsList>
            <TabsContent value="created">
              <ChallengeGrid
                filter={CREATED}
                viewerId={viewerId}
                label="Challenges you created"
                empty={<EmptyState icon={Swords} title="NO CREATED CHALLENGES" />}
                error={LOAD_ERROR}
                narrow
              />
            </TabsContent>
            <TabsContent value="accepted">
              <ChallengeGrid
                filter={ACCEPTED}
                viewerId={viewerId}
                label="Challenges you accepted"
                empty={<EmptyState icon={Inbox} title="NO ACCEPTED CHALLENGES" />}
                error={LOAD_ERROR}
                narrow
              />
            </TabsContent>
          </Tabs>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * /profile: account summary, contact info and email, ID verification, the free site, the player's
 * challenges and transactions, their devices, a copy of their data and closing the account.
 */
export function ProfilePage({ user }: { user: PublicUser }) {
  const memberSince = formatMonthYear(user.createdAt);
  return (
    <>
      <PageHeader
        eyebrow="PLAYER PROFILE"
        title={user.username}
        description={memberSince ? `Member since ${memberSince}` : undefined}
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle>Account Balance</CardTitle>
            </CardHeader>
            <CardContent className="space-y-5">
              <BalanceFigure balance={user.balance} underReview={user.underReview} />
              <DepositFundsDialog />
            </CardContent>
          </Card>
          <ContactInfoCard user={user} />
          {/* Keyed by the state: a change made elsewhere (another tab) resets the choice. */}
          <LocationCard key={user.state ?? ''} user={user} />
          <PasswordCard />
          <TwoFactorCard user={user} />
          <IdVerificationCard />
          <PlayResponsiblyCard user={user} />
          <FreeSiteCard />
        </div>
        <div className="space-y-6 lg:col-span-2">
          <MyChallengesCard viewerId={user.id} />
          <TransactionsCard />
          <DevicesCard />
          <MyDataCard />
          <CloseAccountCard user={user} />
        </div>
      </div>
    </>
  );
}
