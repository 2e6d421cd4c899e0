import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { CHALLENGE_MESSAGES, type SubmitScoresResponse } from '#shared/contracts/challenges.ts';
import { userQueryKey } from '#client/features/auth/api/get-user.ts';
import { makeAcceptedChallenge, parseRequestUrl } from '#client/test-utils/challenges.ts';
import { FakeXMLHttpRequest } from '#client/test-utils/fake-xhr.ts';
import {
  jsonResponse,
  makeUser,
  renderInApp,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';
import { ChallengeCard } from './challenge-card.tsx';

const UPLOAD_URL = '/api/uploads/0b6f7c1e-3a52-4d7a-9c1e-7f1f2a3b4c5d';

beforeEach(() => {
  FakeXMLHttpRequest.instances = [];
  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const WON: SubmitScoresResponse = {
  status: 'completed',
  winner: { id: 1, prize: 50, deduction: 2.5 },
  updatedWinnerInfo: { id: 1, balance: 60 },
};

/** The player `ace_player` (1), signed in, in an accepted match against `rival`. */
function serve(onSubmit: FetchHandler) {
  return stubFetch((request) => {
    const { path } = parseRequestUrl(request.url);
    if (request.method === 'POST' && path === '/api/challenges/11/submit') return onSubmit(request);
    return jsonResponse(200, []);
  });
}

async function openDialog() {
  const user = userEvent.setup();
  const view = renderInApp(<ChallengeCard challenge={makeAcceptedChallenge()} viewerId={1} />);
  view.queryClient.setQueryData(userQueryKey, makeUser({ id: 1, balance: 12.5 }));
  await user.click(screen.getByRole('button', { name: 'SUBMIT SCORES' }));
  const dialog = await screen.findByRole('dialog', { name: 'Submit Results' });
  // The form loads with the dialog's first opening.
  await within(dialog).findByLabelText('Creator Score');
  return { user, dialog, queryClient: view.queryClient };
}

async function fillAndSend(
  user: ReturnType<typeof userEvent.setup>,
  dialog: HTMLElement,
  { creator = '3', acceptor = '1', screenshot = 'https://i.imgur.com/final.png' } = {},
) {
  await user.clear(within(dialog).getByLabelText('Creator Score'));
  if (creator) await user.type(within(dialog).getByLabelText('Creator Score'), creator);
  await user.clear(within(dialog).getByLabelText('Acceptor Score'));
  if (acceptor) await user.type(within(dialog).getByLabelText('Acceptor Score'), acceptor);
  if (screenshot) await user.type(within(dialog).getByLabelText('Screenshot URL'), screenshot);
  await user.click(within(dialog).getByRole('button', { name: 'SEND RESULTS' }));
}

describe('submit results dialog', () => {
  it('has every field, starts the scores at 0 and says the results go to the admin', async () => {
    serve(() => jsonResponse(200, WON));
    const { dialog } = await openDialog();

    expect(within(dialog).getByLabelText('Creator Score')).toHaveValue(0);
    expect(within(dialog).getByLabelText('Acceptor Score')).toHaveValue(0);
    expect(within(dialog).getByLabelText('Screenshot URL')).toHaveValue('');
    expect(within(dialog).getByLabelText('Notes (optional)')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Dispute Reason (optional)')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Screenshot image')).toBeInTheDocument();
    expect(dialog).toHaveTextContent(/results and screenshot go to the admin/);
  });

  it('requires a screenshot URL and whole scores before sending anything', async () => {
    const fetchMock = serve(() => jsonResponse(200, WON));
    const { user, dialog } = await openDialog();

    await fillAndSend(user, dialog, { creator: '', acceptor: '2.5', screenshot: '' });

    expect(await within(dialog).findByText(CHALLENGE_MESSAGES.screenshotRequired)).toBeVisible();
    expect(within(dialog).getByLabelText('Creator Score')).toHaveAccessibleDescription(
      expect.stringContaining(CHALLENGE_MESSAGES.scoreWhole),
    );
    expect(within(dialog).getByLabelText('Acceptor Score')).toHaveAccessibleDescription(
      expect.stringContaining(CHALLENGE_MESSAGES.scoreWhole),
    );

    await user.type(within(dialog).getByLabelText('Screenshot URL'), 'http://insecure.example/x');
    expect(await within(dialog).findByText(CHALLENGE_MESSAGES.screenshotHttps)).toBeVisible();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/challenges/11/submit', expect.anything());
  });

  it('shows SENDING... while the scores are on their way', async () => {
    let answer: (response: Response) => void = () => undefined;
    serve(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { user, dialog } = await openDialog();

    await fillAndSend(user, dialog);

    const sending = await within(dialog).findByRole('button', { name: 'SENDING...' });
    expect(sending).toBeDisabled();
    act(() => answer(jsonResponse(200, WON)));
    expect(
      await screen.findByRole('dialog', { name: 'CHALLENGE RESULTS SUBMITTED' }),
    ).toBeVisible();
  });

  it('sends the scores, toasts SCORES SUBMITTED, shows the results and the new balance', async () => {
    const fetchMock = serve(() => jsonResponse(200, WON));
    const { user, dialog, queryClient } = await openDialog();

    await fillAndSend(user, dialog);

    const toast = await findToast('SCORES SUBMITTED');
    expect(toast).toHaveTextContent(
      'The challenge has been completed and screenshot sent to admin.',
    );
    const results = await screen.findByRole('dialog', { name: 'CHALLENGE RESULTS SUBMITTED' });
    expect(within(results).getByText('YOU WON')).toBeInTheDocument();
    expect(within(results).getByText('$60.00')).toBeInTheDocument();
    expect(queryClient.getQueryData(userQueryKey)).toMatchObject({ balance: 60 });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/challenges/11/submit',
      expect.objectContaining({
        method: 'POST',
        body: JSON.stringify({
          creatorScore: 3,
          acceptorScore: 1,
          screenshot: 'https://i.imgur.com/final.png',
        }),
      }),
    );
  });

  it('toasts SUBMISSION FAILED with the server message and keeps the form', async () => {
    serve(() =>
      jsonResponse(409, {
        code: 'CHALLENGE_NOT_ACCEPTED',
        message: CHALLENGE_MESSAGES.alreadySubmitted,
      }),
    );
    const { user, dialog } = await openDialog();

    await fillAndSend(user, dialog);

    const toast = await findToast('SUBMISSION FAILED');
    expect(toast).toHaveTextContent(`409: ${CHALLENGE_MESSAGES.alreadySubmitted}`);
    expect(screen.getByRole('dialog', { name: 'Submit Results' })).toBeInTheDocument();
  });

  it('falls back to the generic message when the request never got an answer', async () => {
    serve(() => Promise.reject(new TypeError('Failed to fetch')));
    const { user, dialog } = await openDialog();

    await fillAndSend(user, dialog);

    const toast = await findToast('SUBMISSION FAILED');
    expect(toast).toHaveTextContent('There was an error submitting scores. Please try again.');
  });

  it('explains an expired session with an Authentication Error', async () => {
    serve(() =>
      jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'Unauthorized: please log in' }),
    );
    const { user, dialog } = await openDialog();

    await fillAndSend(user, dialog);

    const toast = await findToast('Authentication Error');
    expect(toast).toHaveTextContent(
      'You need to be logged in to submit results. Please refresh the page and try again.',
    );
  });
});

describe('screenshot upload', () => {
  const image = () => new File(['png-bytes'], 'final.png', { type: 'image/png' });

  it('asks for a file when none is selected', async () => {
    serve(() => jsonResponse(200, WON));
    const { user, dialog } = await openDialog();

    await user.click(within(dialog).getByRole('button', { name: 'UPLOAD' }));

    const toast = await findToast('NO FILE SELECTED');
    expect(toast).toHaveTextContent('Please select a screenshot image to upload');
    expect(FakeXMLHttpRequest.instances).toHaveLength(0);
  });

  it('shows progress and puts the uploaded file’s URL into the screenshot field', async () => {
    serve(() => jsonResponse(200, WON));
    const { user, dialog } = await openDialog();

    await user.upload(within(dialog).getByLabelText('Screenshot image'), image());
    await user.click(within(dialog).getByRole('button', { name: 'UPLOAD' }));

    const request = FakeXMLHttpRequest.latest();
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/challenges/11/upload-screenshot');
    expect(request.body).toBeInstanceOf(FormData);
    expect((request.body as FormData).get('screenshot')).toMatchObject({ name: 'final.png' });

    act(() => request.progress(40, 100));
    expect(within(dialog).getByRole('progressbar', { name: 'Upload progress' })).toHaveValue(40);

    act(() => request.respond(201, { id: 'x', url: UPLOAD_URL }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Screenshot URL')).toHaveValue(UPLOAD_URL),
    );
    expect(within(dialog).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows the server’s refusal and toasts UPLOAD FAILED', async () => {
    serve(() => jsonResponse(200, WON));
    const { user, dialog } = await openDialog();

    await user.upload(within(dialog).getByLabelText('Screenshot image'), image());
    await user.click(within(dialog).getByRole('button', { name: 'UPLOAD' }));
    act(() =>
      FakeXMLHttpRequest.latest().respond(413, {
        code: 'PAYLOAD_TOO_LARGE',
        message: 'File too large. Please upload a file smaller than 25MB.',
      }),
    );

    const toast = await findToast('UPLOAD FAILED');
    expect(toast).toHaveTextContent('There was a problem uploading your screenshot');
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Screenshot image')).toHaveAccessibleDescription(
        'File too large. Please upload a file smaller than 25MB.',
      ),
    );
    expect(within(dialog).getByLabelText('Screenshot URL')).toHaveValue('');
  });

  it('words a dropped connection as a network error, and an unexplained refusal as Upload failed', async () => {
    serve(() => jsonResponse(200, WON));
    const { user, dialog } = await openDialog();
    const picker = within(dialog).getByLabelText('Screenshot image');

    await user.upload(picker, image());
    await user.click(within(dialog).getByRole('button', { name: 'UPLOAD' }));
    act(() => FakeXMLHttpRequest.latest().failNetwork());
    await waitFor(() => expect(picker).toHaveAccessibleDescription('Network error during upload'));

    await user.click(within(dialog).getByRole('button', { name: 'UPLOAD' }));
    act(() => FakeXMLHttpRequest.latest().respond(502, '<html>Bad gateway</html>'));
    await waitFor(() => expect(picker).toHaveAccessibleDescription('Upload failed'));
  });

  it('refuses a file that is not an image without sending it', async () => {
    serve(() => jsonResponse(200, WON));
    const { dialog } = await openDialog();
    // The picker only offers images; a drag-and-drop or a permissive OS dialog may not.
    const user = userEvent.setup({ applyAccept: false });

    await user.upload(
      within(dialog).getByLabelText('Screenshot image'),
      new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'UPLOAD' }));

    await findToast('UPLOAD FAILED');
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Screenshot image')).toHaveAccessibleDescription(
        'Invalid file type',
      ),
    );
    expect(FakeXMLHttpRequest.instances).toHaveLength(0);
  });
});
