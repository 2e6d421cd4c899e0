import { useId } from 'react';
import { Link2Off } from 'lucide-react';
import {
  clearLinkBodySchema,
  type DeviceLinkView,
  type RiskPlayer,
} from '#shared/contracts/insights.ts';
import { z } from '#shared/validation.ts';
import { ReasonDialog } from '#client/components/reason-dialog.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { formatDateTime } from '#client/lib/format.ts';
import { useClearDeviceLink } from '../api/clear-device-link.ts';
import { PlayerLink } from './risk-tab.tsx';

/** The form asks only for the note; the other account is the row the dialog was opened from. */
const clearLinkFormSchema = z.object({ note: clearLinkBodySchema.shape.note });

/** Clears one link with a note, after which the two accounts may play each other. */
function ClearLinkDialog({ player, other }: { player: RiskPlayer; other: RiskPlayer }) {
  const clear = useClearDeviceLink();
  return (
    <ReasonDialog
      trigger={
        <Button variant="outline" size="sm">
          <Link2Off aria-hidden="true" />
          CLEAR LINK
        </Button>
      }
      title={`Clear the link with ${other.username}`}
      description={`${player.username} and ${other.username} signed in on one device, so they cannot play each other. Clear the link only when you know why they share it; the note is kept in the audit log.`}
      schema={clearLinkFormSchema}
      defaultValues={{ note: '' }}
      fields={[
        {
          name: 'note',
          label: 'Note',
          hint: 'Why these accounts may play each other, in up to 500 characters.',
          placeholder: 'brothers, one console',
        },
      ]}
      submit={{ label: 'CLEAR LINK', pendingLabel: 'CLEARING...', icon: Link2Off }}
      pending={clear.isPending}
      onSubmit={({ note }, callbacks) =>
        clear.mutate({ userId: player.id, otherUserId: other.id, note }, callbacks)
      }
    />
  );
}

function DeviceLinkRow({ player, link }: { player: RiskPlayer; link: DeviceLinkView }) {
  const nameId = useId();
  return (
    <article
      aria-labelledby={nameId}
      className="space-y-2 rounded-lg border border-ink-700 bg-ink-900/60 p-3 text-sm"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <span id={nameId}>
          <PlayerLink player={link.player} />
        </span>
        <span className="text-xs text-slate-400">
          Last shared a device {formatDateTime(link.lastSharedAt)}
        </span>
      </div>
      {link.cleared ? (
        <div className="space-y-0.5">
          <p className="break-words whitespace-pre-wrap text-slate-200">
            Cleared: {link.cleared.note}
          </p>
          <p className="text-xs text-slate-400">Cleared {formatDateTime(link.cleared.clearedAt)}</p>
        </div>
      ) : (
        <ClearLinkDialog player={player} other={link.player} />
      )}
    </article>
  );
}

/**
 * LINKED BY A DEVICE on the player page (docs/accounts.md): the accounts that signed in on one of
 * this player's devices, which may not play them until an admin clears the link with a note.
 */
export function DeviceLinksSection({
  player,
  links,
}: {
  player: RiskPlayer;
  links: DeviceLinkView[];
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <h2 id={titleId} className="font-display text-sm font-bold tracking-wider text-white">
        LINKED BY A DEVICE
      </h2>
      {links.length === 0 ? (
        <p className="text-sm text-slate-400">
          No other account signed in on this player’s devices.
        </p>
      ) : (
        <ul className="space-y-2">
          {links.map((link) => (
            <li key={link.player.id}>
              <DeviceLinkRow player={player} link={link} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
