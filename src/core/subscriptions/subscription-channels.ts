/**
 * The channels of the Subscriptions API, one row each: the event names a subscription of the channel
 * may list, the ones Switchboard pushes, and whether the channel is served. A channel that is not
 * served is refused (400 naming `channel`); switching one on is setting `served` once its events are
 * pushed. An event of another channel is refused (400 naming `events[i]`).
 */
export const SUBSCRIPTION_CHANNELS = {
  SMS: {
    served: true,
    // Infobip also lists CLICK; Switchboard tracks no links, so a subscription to it is refused.
    events: ['DELIVERY', 'INBOUND_MESSAGE'],
    pushed: ['DELIVERY', 'INBOUND_MESSAGE'],
  },
  VOICE_VIDEO: {
    served: true,
    // Every name of Infobip's SimpleVoiceVideoEvents, so that an integration's existing subscription
    // is taken as it is; those Switchboard never emits are kept and simply never pushed.
    events: [
      'APPLICATION_TRANSFER_FAILED',
      'APPLICATION_TRANSFER_FINISHED',
      'APPLICATION_TRANSFER_REQUESTED',
      'BULK_CALL_STATUS',
      'CALL_DISCONNECTED',
      'CALL_ESTABLISHED',
      'CALL_FAILED',
      'CALL_FINISHED',
      'CALL_MEDIA_CHANGED',
      'CALL_PRE_ESTABLISHED',
      'CALL_RECEIVED',
      'CALL_RECONNECTED',
      'CALL_RECORDING_DELETED',
      'CALL_RECORDING_FAILED',
      'CALL_RECORDING_READY',
      'CALL_RECORDING_STARTED',
      'CALL_RECORDING_STOPPED',
      'CALL_RINGING',
      'CALL_STARTED',
      'CONFERENCE_COMPOSITION_FAILED',
      'CONFERENCE_COMPOSITION_FINISHED',
      'CONFERENCE_CREATED',
      'CONFERENCE_FINISHED',
      'CONFERENCE_RECORDING_DELETED',
      'CONFERENCE_RECORDING_FAILED',
      'CONFERENCE_RECORDING_READY',
      'CONFERENCE_RECORDING_STARTED',
      'CONFERENCE_RECORDING_STOPPED',
      'DELIVERY',
      'DIALOG_COMPOSITION_FAILED',
      'DIALOG_COMPOSITION_FINISHED',
      'DIALOG_CREATED',
      'DIALOG_ESTABLISHED',
      'DIALOG_FAILED',
      'DIALOG_FINISHED',
      'DIALOG_RECORDING_DELETED',
      'DIALOG_RECORDING_FAILED',
      'DIALOG_RECORDING_READY',
      'DIALOG_RECORDING_STARTED',
      'DIALOG_RECORDING_STOPPED',
      'DIALOG_TRANSFER_FAILED',
      'DIALOG_TRANSFER_FINISHED',
      'DIALOG_TRANSFER_REQUESTED',
      'DTMF_CAPTURED',
      'ERROR',
      'MACHINE_DETECTION_FAILED',
      'MACHINE_DETECTION_FINISHED',
      'MACHINE_MESSAGE_DETECTION_FAILED',
      'MACHINE_MESSAGE_DETECTION_FINISHED',
      'MEDIA_STREAM_FAILED',
      'MEDIA_STREAM_FINISHED',
      'MEDIA_STREAM_STARTED',
      'MISSED_CALL',
      'NUMBER_MASKING',
      'PARTICIPANT_JOINED',
      'PARTICIPANT_JOINING',
      'PARTICIPANT_JOIN_FAILED',
      'PARTICIPANT_MEDIA_CHANGED',
      'PARTICIPANT_RECORDING_FAILED',
      'PARTICIPANT_REMOVED',
      'PARTICIPANT_ROLE_CHANGED',
      'PARTICIPANT_ROLE_CHANGE_FAILED',
      'PARTICIPANT_STARTED_TALKING',
      'PARTICIPANT_STOPPED_TALKING',
      'PLAY_FINISHED',
      'SAY_FINISHED',
      'SILENT_VERIFICATION_DELIVERY',
      'SPEECH_CAPTURED',
      'TRANSCRIPTION',
    ],
    pushed: [
      'CALL_RECEIVED',
      'CALL_STARTED',
      'CALL_RINGING',
      'CALL_PRE_ESTABLISHED',
      'CALL_ESTABLISHED',
      'CALL_FINISHED',
      'CALL_FAILED',
      'SAY_FINISHED',
      'PLAY_FINISHED',
      'DTMF_CAPTURED',
      'MACHINE_DETECTION_FINISHED',
      'ERROR',
      // The delivery report of a voice PIN sent with trackDelivery.
      'DELIVERY',
    ],
  },
  RCS: {
    served: true,
    // Infobip's SimpleRcsEvents, every one accepted so that an integration's existing subscription
    // is taken as it is; those Switchboard never emits are kept and simply never pushed.
    events: [
      'CAP_CHECK',
      'CLICK',
      'CONVERSATION_STARTED',
      'DELIVERY',
      'INBOUND_MESSAGE',
      'SEEN',
      'SENDER_LAUNCH_UPDATE',
      'SENDER_UPDATE',
      'SUGGESTION',
      'TEMPLATE_UPDATE',
      'TEST_NUMBER_UPDATE',
      'TYPING_INDICATOR',
    ],
    // DELIVERY: reports of RCS messages and their SMS failovers; SEEN: seen reports; INBOUND_MESSAGE:
    // what end users send, a tapped suggestion included (Infobip pushes those as inbound messages of
    // type SUGGESTION, so the SUGGESTION event has nothing of its own here).
    pushed: ['DELIVERY', 'SEEN', 'INBOUND_MESSAGE'],
  },
} as const;

export type SubscriptionChannel = keyof typeof SUBSCRIPTION_CHANNELS;

/** The event names a subscription of `C` may list. */
export type ChannelEvent<C extends SubscriptionChannel> = (typeof SUBSCRIPTION_CHANNELS)[C]['events'][number];

/** Any channel's event name. */
export type SubscriptionEventName = ChannelEvent<SubscriptionChannel>;

/** The channels the API serves, in table order. */
export const SERVED_CHANNELS = (Object.keys(SUBSCRIPTION_CHANNELS) as SubscriptionChannel[]).filter(
  (channel) => SUBSCRIPTION_CHANNELS[channel].served,
);

/** The event names a subscription of `channel` may list, or undefined for a channel not served. */
export function eventsOfChannel(channel: string): readonly string[] | undefined {
  if (!(SERVED_CHANNELS as readonly string[]).includes(channel)) return undefined;
  return SUBSCRIPTION_CHANNELS[channel as SubscriptionChannel].events;
}
