import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { PROFILE_MESSAGES, type VerificationStatus } from '#shared/contracts/profile.ts';
import { useUser } from '#client/features/auth/api/get-user.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import { FakeXMLHttpRequest } from '#client/test-utils/fake-xhr.ts';
import {
  jsonResponse,
  makeUser,
  renderInApp,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';
import { ContactInfoCard } from './contact-info-card.tsx';
import { FreeSiteCard } from './free-site-card.tsx';
import { IdVerificationCard } from './id-verification-card.tsx';

beforeEach(() => {
  FakeXMLHttpRequest.instances = [];
  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const NO_VERIFICATION: VerificationStatus = {
  status: 'none',
  note: null,
  submittedAt: null,
  reviewedAt: null,
};

interface ProfileServer {
  user?: PublicUser | (() => PublicUser);
  onUpdateEmail?: FetchHandler;
  onResend?: FetchHandler;
  verification?: () => VerificationStatus;
  freeSiteUrl?: string | null;
}

function currentUser(user: PublicUser | (() => PublicUser)): PublicUser {
  return typeof user === 'function' ? user() : user;
}

function serve({
  user: userOrNow = makeUser({ email: null }),
  onUpdateEmail = ({ body }) =>
    jsonResponse(200, {
      ...currentUser(userOrNow),
      email: (body as { email: string }).email.toLowerCase(),
    }),
  onResend = () => jsonResponse(202, { message: SECURITY_MESSAGES.verificationSent }),
  verification = () => NO_VERIFICATION,
  freeSiteUrl = null,
}: ProfileServer = {}) {
  return stubFetch((request) => {
    const { path } = parseRequestUrl(request.url);
    if (path === '/api/user') return jsonResponse(200, currentUser(userOrNow));
    if (request.method === 'POST' && path === '/api/user/update-email') {
      return onUpdateEmail(request);
    }
    if (request.method === 'POST' && path === '/api/user/verify-email/resend') {
      return onResend(request);
    }
    if (path === '/api/user/verification') return jsonResponse(200, verification());
    if (path === '/api/profile/config') {
      return jsonResponse(200, { freeSiteUrl, excludedStates: ['AZ', 'TN'] });
    }
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

/** The contact card fed from the cached user, as the profile page feeds it. */
function ContactCardOfSignedInUser() {
  const { user } = useUser();
  return user ? <ContactInfoCard user={user} /> : null;
}

function emailPosts(fetchMock: ReturnType<typeof stubFetch>) {
  return fetchMock.mock.calls.filter(([input]) => String(input) === '/api/user/update-email');
}

async function openEmailDialog() {
  const user = userEvent.setup();
  renderInApp(<ContactCardOfSignedInUser />, '/profile');
  const card = await screen.findByRole('region', { name: 'Contact Info' });
  await user.click(within(card).getByRole('button', { name: 'Update Email' }));
  return { user, card, dialog: await screen.findByRole('dialog', { name: 'Update Email' }) };
}

describe('contact info', () => {
  it('shows the username, and Not provided for a missing phone or email', async () => {
    serve({ user: makeUser({ phoneNumber: null, email: null }) });
    renderInApp(<ContactCardOfSignedInUser />);

    const card = await screen.findByRole('region', { name: 'Contact Info' });
    expect(card).toHaveTextContent('Usernameace_player');
    expect(card).toHaveTextContent('PhoneNot provided');
    expect(card).toHaveTextContent('EmailNot provided');
  });
});

describe('e-mail verification', () => {
  it('shows Verified beside a verified address, with nothing to resend', async () => {
    serve({ user: makeUser({ email: 'ace@example.com', emailVerified: true }) });
    renderInApp(<ContactCardOfSignedInUser />);

    const card = await screen.findByRole('region', { name: 'Contact Info' });
    expect(card).toHaveTextContent('Emailace@example.comVerified');
    expect(within(card).queryByRole('button', { name: /RESEND/ })).not.toBeInTheDocument();
  });

  it('resends the link for an unverified address and toasts the server’s words', async () => {
    const fetchMock = serve({ user: makeUser({ email: 'ace@example.com', emailVerified: false }) });
    const user = userEvent.setup();
    renderInApp(<ContactCardOfSignedInUser />);

    const card = await screen.findByRole('region', { name: 'Contact Info' });
    expect(card).toHaveTextContent('Emailace@example.comNot verified');
    await user.click(within(card).getByRole('button', { name: 'RESEND verification link' }));

    expect(await findToast('VERIFICATION LINK SENT')).toHaveTextContent(
      SECURITY_MESSAGES.verificationSent,
    );
    const resends = fetchMock.mock.calls.filter(
      ([input]) => String(input) === '/api/user/verify-email/resend',
    );
    expect(resends).toHaveLength(1);
    expect(resends[0]?.[1]?.method).toBe('POST');
  });

  it('toasts a refusal in the server’s words and reads the user again', async () => {
    let verified = false;
    serve({
      user: () => makeUser({ email: 'ace@example.com', emailVerified: verified }),
      onResend: () => {
        verified = true;
        return jsonResponse(400, {
          code: 'VALIDATION_FAILED',
          message: SECURITY_MESSAGES.alreadyVerified,
        });
      },
    });
    const user = userEvent.setup();
    renderInApp(<ContactCardOfSignedInUser />);

    const card = await screen.findByRole('region', { name: 'Contact Info' });
    await user.click(within(card).getByRole('button', { name: 'RESEND verification link' }));

    const toast = await findToast('LINK NOT SENT');
    expect(toast).toHaveTextContent(SECURITY_MESSAGES.alreadyVerified);
    expect(toast).not.toHaveTextContent('400');
    expect(await within(card).findByText('Verified')).toBeInTheDocument();
  });

  it('offers no badge and no resend without an address', async () => {
    serve({ user: makeUser({ email: null }) });
    renderInApp(<ContactCardOfSignedInUser />);

    const card = await screen.findByRole('region', { name: 'Contact Info' });
    expect(within(card).queryByText('Not verified')).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: /RESEND/ })).not.toBeInTheDocument();
  });
});

describe('update email', () => {
  it.each(['no-at-sign.example.com', 'name@nodot', 'two words@example.com', ''])(
    'refuses %j with INVALID EMAIL FORMAT and sends nothing',
    async (email) => {
      const fetchMock = serve();
      const { user, dialog } = await openEmailDialog();

      if (email) await user.type(within(dialog).getByLabelText('Email'), email);
      await user.click(within(dialog).getByRole('button', { name: 'SAVE EMAIL' }));

      expect(await findToast('INVALID EMAIL FORMAT')).toHaveTextContent(
        PROFILE_MESSAGES.emailInvalid,
      );
      expect(within(dialog).getByLabelText('Email')).toHaveAccessibleDescription(
        PROFILE_MESSAGES.emailInvalid,
      );
      expect(emailPosts(fetchMock)).toHaveLength(0);
    },
  );

  it('saves a simple address, toasts EMAIL UPDATED and shows it on the card', async () => {
    const fetchMock = serve();
    const { user, card, dialog } = await openEmailDialog();

    await user.type(within(dialog).getByLabelText('Email'), 'New@Example.com');
    await user.click(within(dialog).getByRole('button', { name: 'SAVE EMAIL' }));

    expect(await findToast('EMAIL UPDATED')).toHaveTextContent('new@example.com');
    expect(emailPosts(fetchMock)[0]?.[1]?.body).toBe(JSON.stringify({ email: 'new@example.com' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(card).toHaveTextContent('Emailnew@example.com');
  });

  it('toasts UPDATE FAILED when the server cannot save it', async () => {
    serve({
      onUpdateEmail: () => jsonResponse(500, { code: 'INTERNAL', message: 'Something went wrong' }),
    });
    const { user, dialog } = await openEmailDialog();

    await user.type(within(dialog).getByLabelText('Email'), 'me@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'SAVE EMAIL' }));

    expect(await findToast('UPDATE FAILED')).toHaveTextContent(
      'An error occurred while updating your email.',
    );
    expect(screen.getByRole('dialog', { name: 'Update Email' })).toBeInTheDocument();
  });
});

function file(name: string, type: string, sizeBytes?: number): File {
  const made = new File(['licence'], name, { type });
  if (sizeBytes !== undefined) Object.defineProperty(made, 'size', { value: sizeBytes });
  return made;
}

async function openUploadDialog(verification?: () => VerificationStatus) {
  // A player can choose "All files" in the picker: the accept list is a hint, not a rule.
  const user = userEvent.setup({ applyAccept: false });
  const fetchMock = serve(verification ? { verification } : {});
  renderInApp(<IdVerificationCard />, '/profile');
  const card = await screen.findByRole('region', { name: 'ID Verification' });
  await within(card).findByText('NOT VERIFIED');
  await user.click(within(card).getByRole('button', { name: "Upload Driver's License" }));
  const dialog = await screen.findByRole('dialog', { name: "Upload Driver's License" });
  return { user, card, dialog, fetchMock };
}

describe("driver's license upload", () => {
  it('accepts only the licence types, refuses other files and big ones before uploading', async () => {
    const { user, dialog } = await openUploadDialog();
    const picker = within(dialog).getByLabelText("Driver's License");
    expect(picker.getAttribute('accept')).toContain('.heic');
    expect(picker.getAttribute('accept')).toContain('application/pdf');

    await user.upload(picker, file('setup.exe', 'application/x-msdownload'));
    expect(await findToast('Invalid file type')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'UPLOAD LICENSE' }));

    await user.upload(picker, file('licence.jpg', 'image/jpeg', 25 * 1024 * 1024 + 1));
    expect(await findToast('File too large')).toHaveTextContent(
      'Please upload a file smaller than 25MB.',
    );
    expect(picker).toHaveAccessibleDescription(expect.stringContaining('File too large'));
    await user.click(within(dialog).getByRole('button', { name: 'UPLOAD LICENSE' }));

    expect(FakeXMLHttpRequest.instances).toHaveLength(0);
  });

  it('asks for a file when none is chosen', async () => {
    const { user, dialog } = await openUploadDialog();
    await user.click(within(dialog).getByRole('button', { name: 'UPLOAD LICENSE' }));
    expect(within(dialog).getByLabelText("Driver's License")).toHaveAccessibleDescription(
      expect.stringContaining('Please select a file to upload'),
    );
    expect(FakeXMLHttpRequest.instances).toHaveLength(0);
  });

  it('uploads as driversLicense, toasts VERIFICATION SUCCESSFUL and shows the pending review', async () => {
    let verification = NO_VERIFICATION;
    const { user, card, dialog } = await openUploadDialog(() => verification);
    const licence = file('licence.heic', '');

    await user.upload(within(dialog).getByLabelText("Driver's License"), licence);
    await user.click(within(dialog).getByRole('button', { name: 'UPLOAD LICENSE' }));

    const request = FakeXMLHttpRequest.latest();
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/user/upload-license');
    expect((request.body as FormData).get('driversLicense')).toBe(licence);
    act(() => request.progress(50, 100));
    expect(within(dialog).getByText('Uploading… 50%')).toBeInTheDocument();

    verification = { ...NO_VERIFICATION, status: 'pending', submittedAt: '2025-03-14T12:00:00Z' };
    act(() =>
      request.respond(201, { message: PROFILE_MESSAGES.licenseUploaded, status: 'pending' }),
    );

    expect(await findToast('VERIFICATION SUCCESSFUL')).toHaveTextContent(
      PROFILE_MESSAGES.licenseUploaded,
    );
    expect(await within(card).findByText('PENDING REVIEW')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it.each([
    [415, { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Invalid file type' }, 'Invalid file type'],
    [
      413,
      {
        code: 'PAYLOAD_TOO_LARGE',
        message: 'File too large. Please upload a file smaller than 25MB.',
      },
      'File too large. Please upload a file smaller than 25MB.',
    ],
    [502, '<html>Bad gateway</html>', 'Failed to upload file. Please try again.'],
  ])('toasts VERIFICATION FAILED for a %i answer', async (status, body, message) => {
    const { user, dialog } = await openUploadDialog();
    await user.upload(
      within(dialog).getByLabelText("Driver's License"),
      file('id.png', 'image/png'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'UPLOAD LICENSE' }));

    act(() => FakeXMLHttpRequest.latest().respond(status, body));

    expect(await findToast('VERIFICATION FAILED')).toHaveTextContent(message);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('toasts UPLOAD FAILED when the network fails', async () => {
    const { user, dialog } = await openUploadDialog();
    await user.upload(
      within(dialog).getByLabelText("Driver's License"),
      file('id.pdf', 'application/pdf'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'UPLOAD LICENSE' }));

    act(() => FakeXMLHttpRequest.latest().failNetwork());

    expect(await findToast('UPLOAD FAILED')).toHaveTextContent(
      'Network error occurred. Please try again.',
    );
  });
});

describe('verification status', () => {
  it('shows a rejection with the reviewer’s note', async () => {
    serve({
      verification: () => ({
        status: 'rejected',
        note: 'The photo is blurry',
        submittedAt: '2025-03-14T12:00:00Z',
        reviewedAt: '2025-03-15T12:00:00Z',
      }),
    });
    renderInApp(<IdVerificationCard />);

    const card = await screen.findByRole('region', { name: 'ID Verification' });
    expect(await within(card).findByText('REJECTED')).toBeInTheDocument();
    expect(card).toHaveTextContent('The photo is blurry');
    expect(
      within(card).getByRole('button', { name: "Upload Driver's License Again" }),
    ).toBeInTheDocument();
  });

  it('shows an approval as VERIFIED', async () => {
    serve({
      verification: () => ({
        status: 'approved',
        note: null,
        submittedAt: '2025-03-14T12:00:00Z',
        reviewedAt: '2025-03-15T12:00:00Z',
      }),
    });
    renderInApp(<IdVerificationCard />);
    const card = await screen.findByRole('region', { name: 'ID Verification' });
    expect(await within(card).findByText('VERIFIED')).toBeInTheDocument();
  });
});

describe('free site link', () => {
  it('links to the configured free site in a new tab', async () => {
    serve({ freeSiteUrl: 'https://free.example.com/play' });
    renderInApp(<FreeSiteCard />);

    const link = await screen.findByRole('link', { name: /VISIT THE FREE SITE/ });
    expect(link).toHaveAttribute('href', 'https://free.example.com/play');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('is hidden when no free site is configured, or its address is not a web address', async () => {
    const fetchMock = serve({ freeSiteUrl: 'javascript:alert(1)' });
    renderInApp(<FreeSiteCard />);
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith('/api/profile/config', expect.anything()),
    );
    await act(async () => {});
    expect(screen.queryByRole('region', { name: 'Play for Free' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });
});
