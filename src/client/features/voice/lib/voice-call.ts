import type { Socket } from 'socket.io-client';
import type { SignalPayload } from '#shared/contracts/voice.ts';

export type VoiceStatus =
  'idle' | 'starting' | 'waiting' | 'connecting' | 'connected' | 'interrupted';

export interface VoiceCallState {
  status: VoiceStatus;
  /** docs/product.md#states: true once the other player joined and the peer link is up. */
  connected: boolean;
  muted: boolean;
}

interface ServerToClient {
  'user-joined': (userId: number) => void;
  'user-left': (userId: number) => void;
  signal: (payload: SignalPayload) => void;
}
interface ClientToServer {
  signal: (payload: SignalPayload) => void;
}
export type SignallingSocket = Socket<ServerToClient, ClientToServer>;

export interface VoiceCallEvents {
  onConnected(): void;
  onDropped(): void;
  /** The server refused the signalling connection, with its reason. */
  onRefused(reason: string): void;
}

/** What a call needs from the browser; tests hand in doubles for each. */
export interface VoiceCallDeps {
  getMicrophone(): Promise<MediaStream>;
  openSocket(): SignallingSocket;
  createPeer(): RTCPeerConnection;
  onRemoteStream(stream: MediaStream | null): void;
}

type Signal =
  { type: 'offer' | 'answer'; sdp: string } | { type: 'candidate'; candidate: RTCIceCandidateInit };

function asSignal(value: Record<string, unknown>): Signal | null {
  if ((value.type === 'offer' || value.type === 'answer') && typeof value.sdp === 'string') {
    return { type: value.type, sdp: value.sdp };
  }
  if (
    value.type === 'candidate' &&
    typeof value.candidate === 'object' &&
    value.candidate !== null
  ) {
    return { type: 'candidate', candidate: value.candidate as RTCIceCandidateInit };
  }
  return null;
}

/**
 * One player's side of an audio call (docs/product.md#states): the creator offers once the other
 * player has joined the signalling room, the acceptor answers. Ending the call stops the
 * microphone.
 */
export class VoiceCall {
  private state: VoiceCallState = { status: 'idle', connected: false, muted: false };
  private readonly listeners = new Set<(state: VoiceCallState) => void>();
  private microphone: MediaStream | null = null;
  private socket: SignallingSocket | null = null;
  private peer: RTCPeerConnection | null = null;
  private pendingCandidates: RTCIceCandidateInit[] = [];

  constructor(
    private readonly me: { userId: number; isCreator: boolean },
    private readonly deps: VoiceCallDeps,
    private readonly events: VoiceCallEvents = { onConnected() {}, onDropped() {}, onRefused() {} },
  ) {}

  get snapshot(): VoiceCallState {
    return this.state;
  }

  subscribe(listener: (state: VoiceCallState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(patch: Partial<VoiceCallState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener(this.state);
  }

  /** Asks for the microphone and joins the room; rejects when the microphone is refused. */
  async start(): Promise<void> {
    if (this.state.status !== 'idle' && this.state.status !== 'interrupted') return;
    this.set({ status: 'starting' });
    try {
      this.microphone = await this.deps.getMicrophone();
    } catch (error) {
      this.set({ status: 'idle' });
      throw error;
    }
    this.applyMute();
    const socket = this.deps.openSocket();
    this.socket = socket;
    this.set({ status: 'waiting' });
    socket.on('user-joined', () => {
      if (this.me.isCreator) void this.call();
    });
    socket.on('signal', (payload) => void this.receive(payload.signal));
    socket.on('user-left', () => {
      // The other player hung up: wait in the room for them to come back.
      this.closePeer();
      this.set({ status: 'waiting', connected: false });
    });
    socket.on('disconnect', () => {
      if (this.socket === socket) this.drop();
    });
    socket.on('connect_error', (error) => {
      if (this.socket !== socket) return;
      this.stop();
      this.events.onRefused(error.message);
    });
  }

  toggleMute(): boolean {
    this.set({ muted: !this.state.muted });
    this.applyMute();
    return this.state.muted;
  }

  /** Ends the peer link, leaves the room and frees the microphone. */
  stop(): void {
    this.closePeer();
    this.socket?.removeAllListeners();
    this.socket?.disconnect();
    this.socket = null;
    for (const track of this.microphone?.getTracks() ?? []) track.stop();
    this.microphone = null;
    this.set({ status: 'idle', connected: false });
  }

  private applyMute(): void {
    for (const track of this.microphone?.getAudioTracks() ?? []) track.enabled = !this.state.muted;
  }

  private send(signal: Signal): void {
    this.socket?.emit('signal', {
      userId: this.me.userId,
      signal: signal as unknown as Record<string, unknown>,
    });
  }

  private openPeer(): RTCPeerConnection {
    this.closePeer();
    const peer = this.deps.createPeer();
    this.peer = peer;
    for (const track of this.microphone?.getTracks() ?? []) {
      if (this.microphone) peer.addTrack(track, this.microphone);
    }
    peer.onicecandidate = (event) => {
      if (event.candidate) this.send({ type: 'candidate', candidate: event.candidate.toJSON() });
    };
    peer.ontrack = (event) =>
      this.deps.onRemoteStream(event.streams[0] ?? new MediaStream([event.track]));
    peer.onconnectionstatechange = () => {
      if (this.peer !== peer) return;
      if (peer.connectionState === 'connected') {
        this.set({ status: 'connected', connected: true });
        this.events.onConnected();
      } else if (peer.connectionState === 'failed' || peer.connectionState === 'closed') {
        this.set({ status: 'waiting', connected: false });
      }
    };
    this.set({ status: 'connecting' });
    return peer;
  }

  private closePeer(): void {
    if (!this.peer) return;
    this.peer.onicecandidate = null;
    this.peer.ontrack = null;
    this.peer.onconnectionstatechange = null;
    this.peer.close();
    this.peer = null;
    this.pendingCandidates = [];
    this.deps.onRemoteStream(null);
  }

  private async call(): Promise<void> {
    const peer = this.openPeer();
    const offer = await peer.createOffer({ offerToReceiveAudio: true, offerToReceiveVideo: false });
    await peer.setLocalDescription(offer);
    if (offer.sdp) this.send({ type: 'offer', sdp: offer.sdp });
  }

  private async receive(raw: Record<string, unknown>): Promise<void> {
    const signal = asSignal(raw);
    if (!signal) return;
    if (signal.type === 'offer') {
      const peer = this.openPeer();
      await peer.setRemoteDescription({ type: 'offer', sdp: signal.sdp });
      await this.flushCandidates();
      const answer = await peer.createAnswer();
      await peer.setLocalDescription(answer);
      if (answer.sdp) this.send({ type: 'answer', sdp: answer.sdp });
    } else if (signal.type === 'answer') {
      await this.peer?.setRemoteDescription({ type: 'answer', sdp: signal.sdp });
      await this.flushCandidates();
    } else if (signal.type === 'candidate' && this.peer?.remoteDescription) {
      await this.peer.addIceCandidate(signal.candidate);
    } else if (signal.type === 'candidate') {
      // Candidates can overtake the description they belong to; keep them until it arrives.
      this.pendingCandidates.push(signal.candidate);
    }
  }

  private async flushCandidates(): Promise<void> {
    const queued = this.pendingCandidates;
    this.pendingCandidates = [];
    for (const candidate of queued) await this.peer?.addIceCandidate(candidate);
  }

  private drop(): void {
    const wasConnected = this.state.connected;
    this.closePeer();
    this.socket = null;
    for (const track of this.microphone?.getTracks() ?? []) track.stop();
    this.microphone = null;
    this.set({ status: 'interrupted', connected: false });
    if (wasConnected) this.events.onDropped();
  }
}
