import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { REPORT_MESSAGES, type AdminReport } from '#shared/contracts/reports.ts';
import { makeReport, OPERATOR } from '#client/test-utils/admin.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import {
  jsonResponse,
  renderApp,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';

// The route is a lazily loaded chunk; loading it once here keeps the first test's wait short.
beforeAll(async () => {
  await import('#client/app/routes/admin.tsx');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const RESOLVED = makeReport({
  id: 3,
  status: 'dismissed',
  reason: 'Rude in chat',
  challengeId: null,
  reporter: { id: 4, username: 'grumpy' },
  resolvedBy: { id: 99, username: 'operator' },
  resolvedAt: '2025-03-15T09:00:00.000Z',
  resolutionNote: 'Banter, not abuse',
});

function serve(reports: () => AdminReport[], onResolve: FetchHandler) {
  return stubFetch((request) => {
    const { path } = parseRequestUrl(request.url);
    if (path === '/api/user') return jsonResponse(200, OPERATOR);
    if (path === '/api/admin/reports') return jsonResponse(200, reports());
    if (request.method === 'POST' && path === '/api/admin/reports/5/resolve') {
      return onResolve(request);
    }
    if (path === '/api/admin/ledger-health') {
      return jsonResponse(200, { ok: true, problems: [], checkedAt: '2025-03-14T12:00:00Z' });
    }
    if (path === '/api/admin/audit') return jsonResponse(200, { items: [], nextBefore: null });
    return jsonResponse(200, []);
  });
}

async function openReports() {
  const user = userEvent.setup();
  renderApp('/admin');
  await user.click(await screen.findByRole('tab', { name: 'REPORTS' }));
  const list = await screen.findByRole('list', { name: 'Player reports' });
  return { user, list };
}

describe('admin REPORTS tab', () => {
  it('lists each report with both players, the reason, the challenge and the decision', async () => {
    serve(
      () => [makeReport(), RESOLVED],
      () => jsonResponse(500, {}),
    );
    const { list } = await openReports();

    const open = within(list).getByRole('article', { name: 'rival reported ace_player' });
    expect(within(open).getByText('OPEN')).toBeInTheDocument();
    expect(open).toHaveTextContent('Sent a screenshot from another match');
    expect(within(open).getByRole('link', { name: '#21' })).toHaveAttribute(
      'href',
      '/challenges/21',
    );
    expect(within(open).getByRole('button', { name: 'DISMISS' })).toBeInTheDocument();
    expect(within(open).getByRole('button', { name: 'MARK ACTIONED' })).toBeInTheDocument();

    const closed = within(list).getByRole('article', { name: 'grumpy reported ace_player' });
    expect(within(closed).getByText('DISMISSED')).toBeInTheDocument();
    expect(closed).toHaveTextContent('by operator');
    expect(closed).toHaveTextContent('Banter, not abuse');
    expect(within(closed).queryByRole('button')).toBeNull();
  });

  it('marks a report actioned with a note, which it asks for first', async () => {
    let reports = [makeReport()];
    const fetchMock = serve(
      () => reports,
      () => {
        reports = [
          makeReport({
            status: 'actioned',
            resolvedBy: { id: 99, username: 'operator' },
            resolvedAt: '2025-03-15T10:00:00.000Z',
            resolutionNote: 'Suspended for a week',
          }),
        ];
        return jsonResponse(200, reports[0]);
      },
    );
    const { user, list } = await openReports();
    const row = within(list).getByRole('article', { name: 'rival reported ace_player' });
    await user.click(within(row).getByRole('button', { name: 'MARK ACTIONED' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark report actioned' });

    await user.click(within(dialog).getByRole('button', { name: 'MARK ACTIONED' }));
    const note = within(dialog).getByLabelText('Note');
    expect(note).toHaveAccessibleDescription(expect.stringContaining(REPORT_MESSAGES.noteRequired));

    await user.type(note, 'Suspended for a week');
    await user.click(within(dialog).getByRole('button', { name: 'MARK ACTIONED' }));
    expect(await findToast('Report marked actioned')).toHaveTextContent(
      'The report about ace_player is closed.',
    );
    const posted = fetchMock.mock.calls.find(
      ([input, init]) =>
        String(input) === '/api/admin/reports/5/resolve' && init?.method === 'POST',
    );
    expect(JSON.parse(String(posted?.[1]?.body))).toEqual({
      action: 'actioned',
      note: 'Suspended for a week',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('ACTIONED')).toBeInTheDocument();
  });

  it('toasts the server’s refusal of a report resolved meanwhile', async () => {
    serve(
      () => [makeReport()],
      () => jsonResponse(409, { code: 'CONFLICT', message: REPORT_MESSAGES.alreadyResolved }),
    );
    const { user, list } = await openReports();
    await user.click(within(list).getByRole('button', { name: 'DISMISS' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dismiss report' });
    await user.type(within(dialog).getByLabelText('Note'), 'Nothing to it');
    await user.click(within(dialog).getByRole('button', { name: 'DISMISS REPORT' }));
    expect(await findToast('Error')).toHaveTextContent(`409: ${REPORT_MESSAGES.alreadyResolved}`);
  });
});
