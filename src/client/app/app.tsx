import type { QueryClient } from '@tanstack/react-query';
import { AppProviders } from './providers.tsx';
import { AppRoutes } from './router.tsx';

export function App({ queryClient }: { queryClient?: QueryClient }) {
  return (
    <AppProviders queryClient={queryClient}>
      <AppRoutes />
    </AppProviders>
  );
}
