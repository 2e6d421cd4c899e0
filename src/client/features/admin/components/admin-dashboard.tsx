import { Tabs, TabsContent, TabsList, TabsTrigger } from '#client/components/ui/tabs.tsx';
import { AuditLogTab } from './audit-log-tab.tsx';
import { ChargebacksTab } from './chargebacks-tab.tsx';
import { CompletedChallengesTab } from './completed-challenges-tab.tsx';
import { DisputesTab } from './disputes-tab.tsx';
import { LedgerHealthLine } from './ledger-health-line.tsx';
import { OverviewTab } from './overview-tab.tsx';
import { PayoutsTab } from './payouts-tab.tsx';
import { ReportsTab } from './reports-tab.tsx';
import { RiskTab } from './risk-tab.tsx';
import { TaxReportTab } from './tax-report-tab.tsx';
import { UsersTab } from './users-tab.tsx';
import { VerificationsTab } from './verifications-tab.tsx';

/**
 * The operator's OVERVIEW first (docs/operator-tools.md), then the product's USERS and COMPLETED
 * CHALLENGES (docs/product.md#screens), the operator's queues issue 6 adds, the players' reports
 * (docs/fair-play.md), the RISK signals (docs/operator-tools.md), the card disputes
 * (docs/chargebacks.md) and the tax report (docs/responsible-play.md). Eleven tabs do not fit a 390 px phone, so the tab list scrolls sideways
 * inside its own strip (the page never does); arrow keys move between tabs and bring the focused
 * one into view.
 */
export function AdminDashboard({ viewerId }: { viewerId: number }) {
  return (
    <>
      <LedgerHealthLine />
      <Tabs defaultValue="overview">
        <div className="-mx-4 overflow-x-auto px-4 pb-1 sm:mx-0 sm:px-0">
          {/* Columns sized to their labels (not equal, as two tabs use): the longest label would
              otherwise widen all eleven past the page. On a phone the row scrolls; from a laptop's
              width it wraps, so that no tab is cut off at the edge. */}
          <TabsList
            aria-label="Admin sections"
            className="w-full min-w-max auto-cols-auto! lg:flex lg:min-w-0 lg:flex-wrap"
          >
            <TabsTrigger value="overview">OVERVIEW</TabsTrigger>
            <TabsTrigger value="users">USERS</TabsTrigger>
            <TabsTrigger value="completed">COMPLETED CHALLENGES</TabsTrigger>
            <TabsTrigger value="disputes">DISPUTES</TabsTrigger>
            <TabsTrigger value="payouts">PAYOUTS</TabsTrigger>
            <TabsTrigger value="verifications">ID VERIFICATION</TabsTrigger>
            <TabsTrigger value="reports">REPORTS</TabsTrigger>
            <TabsTrigger value="risk">RISK</TabsTrigger>
            <TabsTrigger value="chargebacks">CHARGEBACKS</TabsTrigger>
            <TabsTrigger value="tax">TAX REPORT</TabsTrigger>
            <TabsTrigger value="audit">AUDIT LOG</TabsTrigger>
          </TabsList>
        </div>
        <TabsContent value="overview">
          <OverviewTab />
        </TabsContent>
        <TabsContent value="users">
          <UsersTab viewerId={viewerId} />
        </TabsContent>
        <TabsContent value="completed">
          <CompletedChallengesTab />
        </TabsContent>
        <TabsContent value="disputes">
          <DisputesTab />
        </TabsContent>
        <TabsContent value="payouts">
          <PayoutsTab />
        </TabsContent>
        <TabsContent value="verifications">
          <VerificationsTab />
        </TabsContent>
        <TabsContent value="reports">
          <ReportsTab />
        </TabsContent>
        <TabsContent value="risk">
          <RiskTab />
        </TabsContent>
        <TabsContent value="chargebacks">
          <ChargebacksTab />
        </TabsContent>
        <TabsContent value="tax">
          <TaxReportTab />
        </TabsContent>
        <TabsContent value="audit">
          <AuditLogTab />
        </TabsContent>
      </Tabs>
    </>
  );
}
