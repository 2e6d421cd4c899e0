import { describe, expect, it, vi } from 'vitest';
import { VoiceCall, type SignallingSocket, type VoiceCallDeps } from './voice-call.ts';

type Handler = (...args: unknown[]) => void;

/** A signalling socket double: records what is emitted and lets the test play the server. */
class FakeSocket {
  handlers = new Map<string, Handler[]>();
  emitted: Array<[string, unknown]> = [];
  disconnected = false;
  on(event: string, handler: Handler) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return this;
  }
  emit(event: string, payload: unknown) {
    this.emitted.push([event, payload]);
    return this;
  }
  serverSends(event: string, ...args: unknown[]) {
    for (const handler of this.handlers.get(event) ?? []) handler(...args);
  }
  removeAllListeners() {
    this.handlers.clear();
    return this;
  }
  disconnect() {
    this.disconnected = true;
    return this;
  }
}

class FakePeer {
  remoteDescription: RTCSessionDescriptionInit | null = null;
  localDescription: RTCSessionDescriptionInit | null = null;
  candidates: RTCIceCandidateInit[] = [];
  tracks: MediaStreamTrack[] = [];
  closed = false;
  connectionState: RTCPeerConnectionState = 'new';
  onicecandidate: ((event: { candidate: null }) => void) | null = null;
  ontrack: unknown = null;
  onconnectionstatechange: (() => void) | null = null;
  addTrack(track: MediaStreamTrack) {
    this.tracks.push(track);
  }
  async createOffer() {
    return { type: 'offer' as const, sdp: 'offer-sdp' };
  }
  async createAnswer() {
    return { type: 'answer' as const, sdp: 'answer-sdp' };
  }
  async setLocalDescription(description: RTCSessionDescriptionInit) {
    this.localDescription = description;
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit) {
    this.remoteDescription = description;
  }
  async addIceCandidate(candidate: RTCIceCandidateInit) {
    this.candidates.push(candidate);
  }
  close() {
    this.closed = true;
  }
  reach(state: RTCPeerConnectionState) {
    this.connectionState = state;
    this.onconnectionstatechange?.();
  }
}

function fakeMicrophone() {
  const track = { enabled: true, stop: vi.fn(), kind: 'audio' } as unknown as MediaStreamTrack;
  const stream = {
    getTracks: () => [track],
    getAudioTracks: () => [track],
  } as unknown as MediaStream;
  return { track, stream };
}

function setup(isCreator: boolean, microphone: Promise<MediaStream>) {
  const socket = new FakeSocket();
  const peers: FakePeer[] = [];
  const events = { onConnected: vi.fn(), onDropped: vi.fn(), onRefused: vi.fn() };
  const deps: VoiceCallDeps = {
    getMicrophone: () => microphone,
    openSocket: () => socket as unknown as SignallingSocket,
    createPeer: () => {
      const peer = new FakePeer();
      peers.push(peer);
      return peer as unknown as RTCPeerConnection;
    },
    onRemoteStream: () => {},
  };
  const call = new VoiceCall({ userId: isCreator ? 1 : 2, isCreator }, deps, events);
  return { call, socket, peers, events };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('VoiceCall', () => {
  it('the creator offers once the other player joins and is connected when the peer link is up', async () => {
    const { stream } = fakeMicrophone();
    const { call, socket, peers, events } = setup(true, Promise.resolve(stream));
    await call.start();
    expect(call.snapshot).toMatchObject({ status: 'waiting', connected: false });
    socket.serverSends('user-joined', 2);
    await flush();
    expect(socket.emitted).toEqual([
      ['signal', { userId: 1, signal: { type: 'offer', sdp: 'offer-sdp' } }],
    ]);
    socket.serverSends('signal', { userId: 2, signal: { type: 'answer', sdp: 'answer-sdp' } });
    await flush();
    expect(peers[0]!.remoteDescription).toEqual({ type: 'answer', sdp: 'answer-sdp' });
    peers[0]!.reach('connected');
    expect(call.snapshot).toMatchObject({ status: 'connected', connected: true });
    expect(events.onConnected).toHaveBeenCalledTimes(1);
  });

  it('the acceptor never offers; it answers an offer, keeping early candidates until then', async () => {
    const { stream } = fakeMicrophone();
    const { call, socket, peers } = setup(false, Promise.resolve(stream));
    await call.start();
    socket.serverSends('user-joined', 1);
    await flush();
    expect(socket.emitted).toEqual([]);
    socket.serverSends('signal', { userId: 1, signal: { type: 'offer', sdp: 'offer-sdp' } });
    await flush();
    expect(socket.emitted).toEqual([
      ['signal', { userId: 2, signal: { type: 'answer', sdp: 'answer-sdp' } }],
    ]);
    socket.serverSends('signal', {
      userId: 1,
      signal: { type: 'candidate', candidate: { candidate: 'c1' } },
    });
    await flush();
    expect(peers[0]!.candidates).toEqual([{ candidate: 'c1' }]);
  });

  it('mute toggles the microphone track; stop frees the microphone and leaves the room', async () => {
    const { stream, track } = fakeMicrophone();
    const { call, socket } = setup(true, Promise.resolve(stream));
    await call.start();
    expect(call.toggleMute()).toBe(true);
    expect(track.enabled).toBe(false);
    expect(call.toggleMute()).toBe(false);
    expect(track.enabled).toBe(true);
    call.stop();
    expect(track.stop).toHaveBeenCalled();
    expect(socket.disconnected).toBe(true);
    expect(call.snapshot).toMatchObject({ status: 'idle', connected: false });
  });

  it('a refused microphone leaves the call idle and rejects', async () => {
    const { call, socket } = setup(
      true,
      Promise.reject(new DOMException('denied', 'NotAllowedError')),
    );
    await expect(call.start()).rejects.toThrow('denied');
    expect(call.snapshot.status).toBe('idle');
    expect(socket.handlers.size).toBe(0);
  });

  it('a dropped socket ends the call, frees the microphone and can be started again', async () => {
    const { stream, track } = fakeMicrophone();
    const { call, socket, peers, events } = setup(true, Promise.resolve(stream));
    await call.start();
    socket.serverSends('user-joined', 2);
    await flush();
    peers[0]!.reach('connected');
    socket.serverSends('disconnect', 'io server disconnect');
    expect(call.snapshot).toMatchObject({ status: 'interrupted', connected: false });
    expect(track.stop).toHaveBeenCalled();
    expect(peers[0]!.closed).toBe(true);
    expect(events.onDropped).toHaveBeenCalledTimes(1);
    await call.start();
    expect(call.snapshot.status).toBe('waiting');
  });

  it('goes back to waiting when the other player leaves', async () => {
    const { stream } = fakeMicrophone();
    const { call, socket, peers } = setup(true, Promise.resolve(stream));
    await call.start();
    socket.serverSends('user-joined', 2);
    await flush();
    peers[0]!.reach('connected');
    socket.serverSends('user-left', 2);
    expect(call.snapshot).toMatchObject({ status: 'waiting', connected: false });
    expect(peers[0]!.closed).toBe(true);
  });

  it('reports a refused connection', async () => {
    const { stream } = fakeMicrophone();
    const { call, socket, events } = setup(true, Promise.resolve(stream));
    await call.start();
    socket.serverSends(
      'connect_error',
      new Error('Only the two players of this challenge can use its voice chat'),
    );
    expect(events.onRefused).toHaveBeenCalledWith(
      'Only the two players of this challenge can use its voice chat',
    );
    expect(call.snapshot.status).toBe('idle');
  });
});
