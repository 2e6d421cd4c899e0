import type { ReactNode } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import { vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { QueryClient } from '@tanstack/react-query';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { AppProviders } from '#client/app/providers.tsx';
import { AppRoutes } from '#client/app/router.tsx';
import { createQueryClient } from '#client/lib/query-client.ts';
import { SubmittedResultsProvider } from '#client/features/challenges/components/results-modal.tsx';

export function makeUser(overrides: Partial<PublicUser> = {}): PublicUser {
  const balance = overrides.balance ?? 12.5;
  const underReview = overrides.underReview ?? 0;
  return {
    id: 1,
    username: 'ace_player',
    balance,
    available: balance - underReview,
    underReview,
    avatarUrl: null,
    isOver18: true,
    isAdmin: false,
    phoneNumber: '+1 555 123 4567',
    email: null,
    createdAt: '2025-03-14T12:00:00.000Z',
    suspension: null,
    emailVerified: false,
    twoFactorEnabled: false,
    state: null,
    playBreak: null,
    debt: 0,
    moneyLock: null,
    ...overrides,
  };
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export type FetchHandler = (request: {
  method: string;
  url: string;
  body: unknown;
}) => Response | Promise<Response>;

/**
 * Replaces fetch with a handler that sees method, URL and parsed JSON body. The returned mock
 * records every call, so tests can also prove a request was never made.
 */
export function stubFetch(handler: FetchHandler) {
  const mock = vi.fn((input: RequestInfo | URL, init: RequestInit = {}) => {
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const url = input instanceof Request ? input.url : String(input);
    return Promise.resolve(handler({ method: init.method ?? 'GET', url, body }));
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

export interface RenderAppResult extends RenderResult {
  history: string[];
  queryClient: QueryClient;
}

/**
 * Renders the whole app, routes and providers, at `path` in an in-memory location; with a query
 * client a test filled beforehand (as main.tsx fills it from the page), or a new one.
 */
export function renderApp(path: string, queryClient = createQueryClient()): RenderAppResult {
  // jsdom does not implement scrolling; the shell scrolls to the top on every navigation.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  const location = memoryLocation({ path, record: true });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <Router hook={location.hook}>
        <AppRoutes />
      </Router>
    </AppProviders>,
  );
  return { ...view, history: location.history, queryClient };
}

/**
 * Renders one component with what the app gives every page (query client, toasts, router, the
 * results modal), for tests that need a single card or dialog rather than a whole screen.
 */
export function renderInApp(ui: ReactNode, path = '/'): RenderAppResult {
  const location = memoryLocation({ path, record: true });
  const queryClient = createQueryClient();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <Router hook={location.hook}>
        <SubmittedResultsProvider>{ui}</SubmittedResultsProvider>
      </Router>
    </AppProviders>,
  );
  return { ...view, history: location.history, queryClient };
}
