import { Link } from 'wouter';
import { Popover } from 'radix-ui';
import { Button } from '#client/components/ui/button.tsx';
import { formatDateTime } from '#client/lib/format.ts';
import { useMarkNotificationsRead, useNotifications } from '../api/notifications.ts';
import { bellLabel, BellFace } from './bell-face.tsx';

/**
 * The notification list (docs/fair-play.md), newest first. Mounted open by the first press of the
 * bell (see notification-bell.tsx); opening a notification marks it read.
 */
export function NotificationPopover() {
  const notifications = useNotifications();
  const markRead = useMarkNotificationsRead();
  const list = notifications.data?.notifications ?? [];
  const unread = notifications.data?.unread ?? 0;
  return (
    <Popover.Root defaultOpen>
      <Popover.Trigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={bellLabel(unread)}>
          <BellFace unread={unread} />
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={8}
          collisionPadding={8}
          aria-label="Notifications"
          className="z-50 w-[min(24rem,calc(100vw-1rem))] rounded-lg border border-accent/30 bg-ink-850 p-3 shadow-[0_16px_40px_-12px_rgb(0_0_0/0.9)] data-[state=open]:animate-fade-in"
        >
          <div className="flex items-center justify-between gap-3">
            <h2 className="font-display text-xs font-bold tracking-widest text-accent">
              NOTIFICATIONS
            </h2>
            {unread > 0 && (
              <Button
                variant="ghost"
                size="sm"
                disabled={markRead.isPending}
                onClick={() => markRead.mutate({ all: true })}
              >
                MARK ALL READ
              </Button>
            )}
          </div>
          {notifications.isError ? (
            <p className="mt-3 text-sm text-slate-300">Could not load notifications.</p>
          ) : list.length === 0 ? (
            <p className="mt-3 text-sm text-slate-300">
              {notifications.isPending ? 'Loading…' : 'No notifications yet.'}
            </p>
          ) : (
            <ul className="mt-2 max-h-[60vh] space-y-1 overflow-y-auto">
              {list.map((item) => {
                const body = (
                  <>
                    <span className="block font-semibold text-white">
                      {!item.read && <span className="sr-only">Unread: </span>}
                      {item.title}
                    </span>
                    <span className="block text-slate-300">{item.body}</span>
                    <span className="block text-xs text-slate-400">
                      {formatDateTime(item.createdAt)}
                    </span>
                  </>
                );
                const className = `block rounded-md p-2 text-left text-sm ${
                  item.read ? '' : 'border-l-2 border-accent bg-accent/5'
                }`;
                return (
                  <li key={item.id}>
                    {item.challengeId === null ? (
                      <div className={className}>{body}</div>
                    ) : (
                      <Popover.Close asChild>
                        <Link
                          href={`/challenges/${item.challengeId}`}
                          className={`${className} hover:bg-white/5`}
                          onClick={() => {
                            if (!item.read) markRead.mutate({ ids: [item.id] });
                          }}
                        >
                          {body}
                        </Link>
                      </Popover.Close>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
