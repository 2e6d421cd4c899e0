import { Bell } from 'lucide-react';

/** The bell and its unread count, the same before and after the popover has loaded. */
export function BellFace({ unread }: { unread: number }) {
  return (
    <>
      <Bell aria-hidden="true" />
      {unread > 0 && (
        <span
          aria-hidden="true"
          className="absolute -top-1 -right-1 grid min-w-5 place-items-center rounded-full bg-red-600 px-1 text-[0.65rem] font-bold text-white tabular-nums"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </>
  );
}

export function bellLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
}
