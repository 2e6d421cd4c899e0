import { lazy, Suspense, useEffect, useState } from 'react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { Button } from '#client/components/ui/button.tsx';
import { ProfileButtonFace } from './profile-button-face.tsx';

// The menu (Radix's menu and its floating positioning, about 15 kB compressed) is fetched once
// the page is idle and mounted by the first press of the button, so that it is not part of what
// every signed-in page must download before it can show (the JavaScript budget of issue 8).
const loadDropdown = () => import('./profile-menu-dropdown.tsx');
const ProfileMenuDropdown = lazy(() =>
  loadDropdown().then((module) => ({ default: module.ProfileMenuDropdown })),
);

/** The PROFILE button of the top bar: until first pressed, a button that looks the same. */
export function ProfileMenu({ user }: { user: PublicUser }) {
  const [pressed, setPressed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => void loadDropdown(), 1000);
    return () => clearTimeout(timer);
  }, []);

  const standIn = (
    <Button
      variant="outline"
      size="sm"
      aria-haspopup="menu"
      aria-expanded={false}
      onClick={() => setPressed(true)}
      onKeyDown={(event) => {
        // Radix opens a menu on ArrowDown too.
        if (event.key !== 'ArrowDown') return;
        event.preventDefault();
        setPressed(true);
      }}
    >
      <ProfileButtonFace />
    </Button>
  );
  if (!pressed) return standIn;
  return (
    <Suspense fallback={standIn}>
      <ProfileMenuDropdown user={user} />
    </Suspense>
  );
}
