import type { AddedCountry, Correction } from "./types.js";
import { AL } from "./countries/al.js";
import { AU } from "./countries/au.js";
import { BR } from "./countries/br.js";
import { DK } from "./countries/dk.js";
import { GB } from "./countries/gb.js";
import { IM } from "./countries/im.js";
import { KH, CAMBODIA } from "./countries/kh.js";
import { MN, MONGOLIA } from "./countries/mn.js";
import { TERRITORIES_WITHOUT_HOLIDAYS } from "./countries/no-holidays.js";
import { IQ, IRAQ } from "./countries/iq.js";
import { LV } from "./countries/lv.js";
import { MA } from "./countries/ma.js";
import { PG, PAPUA_NEW_GUINEA } from "./countries/pg.js";
import { PR } from "./countries/pr.js";
import { RO } from "./countries/ro.js";
import { SE } from "./countries/se.js";
import { SK } from "./countries/sk.js";
import { SY, SYRIA } from "./countries/sy.js";
import { TR } from "./countries/tr.js";
import { US } from "./countries/us.js";
import { YE, YEMEN } from "./countries/ye.js";
import { ZA } from "./countries/za.js";

import { FK, FALKLAND_ISLANDS } from "./countries/fk.js";
import { KI, KIRIBATI } from "./countries/ki.js";
import { MH, MARSHALL_ISLANDS } from "./countries/mh.js";
import { NR, NAURU } from "./countries/nr.js";
import { NU, NIUE } from "./countries/nu.js";
import { PN, PITCAIRN_ISLANDS } from "./countries/pn.js";
import { PW, PALAU } from "./countries/pw.js";
import { SB, SOLOMON_ISLANDS } from "./countries/sb.js";
import { TK, TOKELAU } from "./countries/tk.js";
import { TV, TUVALU } from "./countries/tv.js";
import { WS, SAMOA } from "./countries/ws.js";

/** Every correction to date-holidays' data, one file per country, each entry with its legal source. */
export const CORRECTIONS: readonly Correction[] = [
  ...AL,
  ...AU,
  ...BR,
  ...DK,
  ...GB,
  ...IM,
  ...IQ,
  ...KH,
  ...LV,
  ...MA,
  ...MN,
  ...PG,
  ...PR,
  ...RO,
  ...SE,
  ...SK,
  ...SY,
  ...TR,
  ...US,
  ...YE,
  ...ZA,
  ...FK,
  ...KI,
  ...MH,
  ...NR,
  ...NU,
  ...PN,
  ...PW,
  ...SB,
  ...TK,
  ...TV,
  ...WS,
];

/** Countries date-holidays does not cover, served from their corrections alone. */
export const ADDED_COUNTRIES: readonly AddedCountry[] = [
  CAMBODIA,
  IRAQ,
  MONGOLIA,
  PAPUA_NEW_GUINEA,
  SYRIA,
  YEMEN,
  FALKLAND_ISLANDS,
  KIRIBATI,
  MARSHALL_ISLANDS,
  NAURU,
  NIUE,
  PITCAIRN_ISLANDS,
  PALAU,
  SOLOMON_ISLANDS,
  TOKELAU,
  TUVALU,
  SAMOA,
  ...TERRITORIES_WITHOUT_HOLIDAYS,
];
