import type { AuditAction, AuditEntryView } from '#shared/contracts/admin.ts';
import { formatCents } from '#shared/money.ts';
import { formatDateTime, formatDollars } from '#client/lib/format.ts';

const ACTION_LABELS: Record<AuditAction, string> = {
  'balance.adjust': 'Balance adjusted',
  'user.delete': 'User deleted',
  'payout.complete': 'Payout completed',
  'payout.fail': 'Payout failed',
  'payout.approve': 'Payout approved and sent',
  'dispute.resolve': 'Dispute resolved',
  'verification.approve': 'License approved',
  'verification.reject': 'License rejected',
  'user.suspend': 'User suspended',
  'user.unsuspend': 'Suspension lifted',
  'report.resolve': 'Report resolved',
  'user.state_change': 'State changed',
  'user.play_break': 'Break from play',
  'user.deposit_limits': 'Deposit limits changed',
  'user.close': 'Account closed by the player',
  'tax_report.export': 'Tax report downloaded',
  'insights.export': 'Export downloaded',
  'player.note': 'Note on a player',
  'tournament.create': 'Tournament created',
  'tournament.cancel': 'Tournament cancelled',
  'tournament.resolve': 'Tournament match decided',
  'user.link_cleared': 'Link between accounts cleared',
  'user.money_lock_lifted': 'Money lock lifted',
  'chargeback.evidence_submit': 'Dispute evidence submitted',
};

export function auditActionLabel(action: AuditAction): string {
  return ACTION_LABELS[action];
}

/** "payout #12", "user #3". */
export function auditTargetLabel(target: AuditEntryView['target']): string {
  return `${target.type.replaceAll('_', ' ')} #${target.id}`;
}

/** Keys whose words are not their name's. */
const DETAIL_LABELS: Record<string, string> = {
  // A deposit limit's change holds its new amount as dollars in text under `cents`.
  cents: 'Limit',
};

/** "balanceAfterCents" → "Balance after"; "userId" → "User ID". */
export function detailLabel(key: string): string {
  const fixed = DETAIL_LABELS[key];
  if (fixed) return fixed;
  const words = key
    .replace(/Cents$/, '')
    .replace(/Id$/, 'ID')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replaceAll('_', ' ')
    .toLowerCase()
    .replace(/\bid\b/g, 'ID');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * A detail as people read it. Cents arrive as text (`"-500"`) so no float touches them, and are
 * shown as dollars; a deposit limit's `cents` holds dollars as text (`"50.00"`; null when removed);
 * times are shown as dates; a nested record is its details in a line, never JSON.
 */
export function detailValue(key: string, value: unknown): string {
  if (key.endsWith('Cents') && (typeof value === 'string' || typeof value === 'number')) {
    const text = String(value);
    if (/^-?\d+$/.test(text)) return formatCents(BigInt(text));
  }
  if (key === 'cents') {
    if (value === null) return 'removed';
    if (typeof value === 'string' && /^\d+(\.\d{1,2})?$/.test(value)) {
      return formatDollars(Number(value));
    }
  }
  if (value === null) return '—';
  if (typeof value === 'string' && ISO_TIME.test(value)) return formatDateTime(value);
  if (Array.isArray(value)) return value.length > 0 ? value.map(String).join(', ') : 'none';
  if (typeof value === 'object') {
    return Object.entries(value)
      .map(([inner, innerValue]) => `${detailLabel(inner)} ${detailValue(inner, innerValue)}`)
      .join(', ');
  }
  return String(value);
}
