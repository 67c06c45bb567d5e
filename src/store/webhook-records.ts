/**
 * The records of the event log and its delivery (D8, D9): events, webhooks, and each delivery
 * of an event to a webhook with its attempts.
 */
import type { RecordedEvent } from '../schemas/harness.js';
import type { Sealed } from './wallet-records.js';

/** An event of the log: stored as the control plane lists it. */
export type EventRecord = RecordedEvent;

export interface WebhookRecord {
  id: string;
  tenantId: string;
  url: string;
  /** Subscribed event types; `*` subscribes to all (D8). */
  events: string[];
  description: string | null;
  enabled: boolean;
  /** The signing secret, sealed at rest; answered only on create and rotate. */
  secret: Sealed;
  createdAt: string;
  updatedAt: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'dead';

/** One HTTP request of a delivery (D9). */
export interface AttemptRecord {
  /** Emulator time the attempt started. */
  at: string;
  /** The X-Service-Timestamp it was signed with (real Unix seconds). */
  signedAt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface DeliveryRecord {
  id: string;
  tenantId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  /** pending: waiting for its first attempt (or a retry from the DLQ); failed: a retry is scheduled. */
  status: DeliveryStatus;
  attempts: AttemptRecord[];
  /** Emulator time of the next attempt; null once succeeded or dead. */
  nextAttemptAt: string | null;
  /**
   * When its webhook was deleted: the delivery is kept for its history (and, if undelivered, in
   * the DLQ) but has nowhere to go. Absent in stores written before this field.
   */
  orphanedAt?: string | null;
  createdAt: string;
  updatedAt: string;
}
