import { lazy, Suspense, useEffect, useState } from 'react';
import { Button } from '#client/components/ui/button.tsx';
import { useNotifications } from '../api/notifications.ts';
import { bellLabel, BellFace } from './bell-face.tsx';

// The list (Radix's popover and its positioning) is fetched once the page is idle and mounted
// by the first press, like the PROFILE menu, so that it is not in every page's first download.
const loadPopover = () => import('./notification-popover.tsx');
const NotificationPopover = lazy(() =>
  loadPopover().then((module) => ({ default: module.NotificationPopover })),
);

/** The top bar's bell: the unread count, and the list of notifications in a popover. */
export function NotificationBell() {
  const [pressed, setPressed] = useState(false);
  const notifications = useNotifications();
  const unread = notifications.data?.unread ?? 0;
  useEffect(() => {
    const timer = setTimeout(() => void loadPopover(), 1000);
    return () => clearTimeout(timer);
  }, []);

  const standIn = (
    <Button
      variant="ghost"
      size="icon"
      className="relative"
      aria-label={bellLabel(unread)}
      aria-haspopup="dialog"
      aria-expanded={false}
      onClick={() => setPressed(true)}
    >
      <BellFace unread={unread} />
    </Button>
  );
  if (!pressed) return standIn;
  return (
    <Suspense fallback={standIn}>
      <NotificationPopover />
    </Suspense>
  );
}
