/**
 * The language codes of Infobip's Calls API and the eSpeak NG voice that speaks each. eSpeak has one
 * voice per language and a few regional ones; a regional code it has no voice for is spoken by the
 * nearest voice of the same language. Voices are named by their identifier in eSpeak's voice list,
 * which names one voice exactly (a bare language code would let eSpeak pick by priority).
 */
const VOICES = {
  ar: 'sem/ar',
  'ar-ma': 'sem/ar',
  ar_xa: 'sem/ar',
  bg: 'zls/bg',
  bn: 'inc/bn',
  'bn-in': 'inc/bn',
  ca: 'roa/ca',
  'cmn-cn': 'sit/cmn',
  cs: 'zlw/cs',
  da: 'gmq/da',
  de: 'gmw/de',
  'de-at': 'gmw/de',
  'de-ch': 'gmw/de',
  el: 'grk/el',
  en: 'gmw/en-US',
  'en-au': 'gmw/en',
  'en-ca': 'gmw/en-US',
  'en-gb': 'gmw/en',
  'en-gb-wls': 'gmw/en',
  'en-ie': 'gmw/en',
  'en-in': 'gmw/en',
  'en-ph': 'gmw/en-US',
  es: 'roa/es',
  'es-419': 'roa/es-419',
  'es-ar': 'roa/es-419',
  'es-co': 'roa/es-419',
  'es-mx': 'roa/es-419',
  'es-us': 'roa/es-419',
  'et-ee': 'urj/et',
  fi: 'urj/fi',
  // eSpeak has no Filipino. Indonesian reads its spelling closest: Austronesian vowels and "ng" as one sound.
  'fil-ph': 'poz/id',
  fr: 'roa/fr',
  'fr-ca': 'roa/fr',
  'fr-ch': 'roa/fr-CH',
  gu: 'inc/gu',
  he: 'sem/he',
  hi: 'inc/hi',
  hr: 'zls/hr',
  hu: 'urj/hu',
  id: 'poz/id',
  is: 'gmq/is',
  it: 'roa/it',
  ja: 'jpx/ja',
  'kk-kz': 'trk/kk',
  kn: 'dra/kn',
  ko: 'ko',
  lt: 'bat/lt',
  lv: 'bat/lv',
  ml: 'dra/ml',
  'mr-in': 'inc/mr',
  ms: 'poz/ms',
  'nb-no': 'gmq/nb',
  nl: 'gmw/nl',
  'nl-be': 'gmw/nl',
  no: 'gmq/nb',
  'pa-in': 'inc/pa',
  pl: 'zlw/pl',
  'pt-br': 'roa/pt-BR',
  'pt-pt': 'roa/pt',
  ro: 'roa/ro',
  ru: 'zle/ru',
  sk: 'zlw/sk',
  sl: 'zls/sl',
  'sr-rs': 'zls/sr',
  sv: 'gmq/sv',
  'sw-ke': 'bnt/sw',
  'sw-tz': 'bnt/sw',
  ta: 'dra/ta',
  te: 'dra/te',
  th: 'tai/th',
  tr: 'trk/tr',
  uk: 'zle/uk',
  'ur-in': 'inc/ur',
  'ur-pk': 'inc/ur',
  'uz-uz': 'trk/uz',
  vi: 'aav/vi',
  // Infobip's code for Welsh; eSpeak's voice is under the ISO code.
  wls: 'cel/cy',
  'yue-hk': 'sit/yue',
  'zh-cn': 'sit/cmn',
  'zh-tw': 'sit/cmn',
} as const satisfies Record<string, string>;

export type SpeechLanguage = keyof typeof VOICES;

/** Every language code the Calls API accepts for speech, for the request schemas' enum. */
export const SPEECH_LANGUAGES = Object.keys(VOICES) as SpeechLanguage[];

/** The eSpeak voice for an API language code, or undefined for a code that is not one. */
export function speechVoiceFor(language: string): string | undefined {
  return Object.hasOwn(VOICES, language) ? VOICES[language as SpeechLanguage] : undefined;
}

/** The language codes of 2FA message templates (`pt_br`, not `pt-br`). */
export const TWO_FACTOR_SPEECH_LANGUAGES = [
  'en', 'es', 'ca', 'da', 'nl', 'fr', 'de', 'it', 'ja', 'ko', 'no', 'pl', 'ru', 'sv', 'fi', 'hr', 'sl', 'ro',
  'pt_pt', 'pt_br', 'zh_cn', 'zh_tw',
] as const;

export type TwoFactorSpeechLanguage = (typeof TWO_FACTOR_SPEECH_LANGUAGES)[number];

/** The Calls API language of a 2FA template language, so a 2FA voice message is spoken like a call's. */
export function speechLanguageOfTwoFactor(language: string): SpeechLanguage | undefined {
  if (!(TWO_FACTOR_SPEECH_LANGUAGES as readonly string[]).includes(language)) return undefined;
  return language.replace('_', '-') as SpeechLanguage;
}

/** The eSpeak voice for a 2FA template language, or undefined for a code that is not one. */
export function twoFactorSpeechVoiceFor(language: string): string | undefined {
  const speechLanguage = speechLanguageOfTwoFactor(language);
  return speechLanguage === undefined ? undefined : speechVoiceFor(speechLanguage);
}
