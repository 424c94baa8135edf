import { streamXml } from './xml.ts';
import { CLIENT_TYPES, emptyRawAdviser, type RawAdviser } from './adviser-row.ts';

/**
 * IAPD compilation feed of firms (`IA_FIRM_SEC_Feed_MM_DD_YYYY.xml.gz`, ISO-8859-1): one `<Firm>` per adviser,
 * values in attributes (`Info@FirmCrdNb`, `Item5F@Q5F2C` …). Unlike the roster it lists every website.
 */
export interface FeedFirm {
  raw: RawAdviser;
  line: number;
  registrationType: 'registered' | 'exempt_reporting' | null;
}

/**
 * Yields firms in document order. `meta.generatedOn` (`IAPDFirmSECReport@GenOn`) is known once the root element
 * has been read, i.e. before the first firm is yielded.
 */
export async function* parseFirmFeed(
  bytes: AsyncIterable<Buffer | Uint8Array>,
  meta: { generatedOn: string | null } = { generatedOn: null },
): AsyncGenerator<FeedFirm> {
  const ready: FeedFirm[] = [];
  let cur: FeedFirm | null = null;
  let inWebAddr = false;
  let web = '';
  const disciplinaryAnswers: string[] = [];
  for await (const _ of streamXml(bytes, 'iso-8859-1', {
    open(name, a, line) {
      if (name === 'IAPDFirmSECReport' || name === 'IAPDFirmStateReport') meta.generatedOn = a.GenOn ?? null;
      if (name === 'Firm') {
        cur = { raw: emptyRawAdviser(), line, registrationType: null };
        disciplinaryAnswers.length = 0;
        return;
      }
      if (!cur) return;
      const r = cur.raw;
      switch (name) {
        case 'Info':
          r.crd = a.FirmCrdNb ?? null;
          r.sec_number = a.SECNb ?? null;
          r.sec_region = a.SECRgnCD ?? null;
          r.business_name = a.BusNm ?? null;
          r.legal_name = a.LegalNm ?? null;
          break;
        case 'MainAddr':
          r.street1 = a.Strt1 ?? null;
          r.street2 = a.Strt2 ?? null;
          r.city = a.City ?? null;
          r.state = a.State ?? null;
          r.country = a.Cntry ?? null;
          r.postal_code = a.PostlCd ?? null;
          r.phone = a.PhNb ?? null;
          break;
        case 'Rgstn':
          r.firm_type = a.FirmType ?? null;
          r.sec_status = a.St ?? null;
          r.sec_status_date = a.Dt ?? null;
          cur.registrationType = a.FirmType == null ? null : /ERA|exempt/i.test(a.FirmType) ? 'exempt_reporting' : 'registered';
          break;
        case 'Filing':
          r.latest_filing_date = a.Dt ?? null;
          r.form_version = a.FormVrsn ?? null;
          break;
        case 'WebAddr':
          inWebAddr = true;
          web = '';
          break;
        case 'Item5A':
          r.employees = a.TtlEmp ?? null;
          break;
        case 'Item5D':
          for (const [k, v] of Object.entries(a)) {
            const letter = k.match(/^Q5D([A-N])/)?.[1]?.toLowerCase();
            if (letter && v && v.trim() !== '0' && v.trim() !== '' && !/^n$/i.test(v.trim())) {
              const t = CLIENT_TYPES[letter];
              if (!r.client_types.includes(t)) r.client_types.push(t);
            }
          }
          break;
        case 'Item5F':
          r.raum_discretionary = a.Q5F2A ?? null;
          r.raum_non_discretionary = a.Q5F2B ?? null;
          r.regulatory_aum_total = a.Q5F2C ?? null;
          r.accounts_total = a.Q5F2F ?? null;
          break;
        case 'Item7B':
          r.has_private_funds = a.Q7B ?? null;
          break;
        default:
          // Item 11 comes as Item11@Q11 in some feeds and only as the sub-items (Item11A@Q11A1 …) in others.
          if (/^Item11/.test(name)) for (const [k, v] of Object.entries(a)) if (/^Q11/.test(k)) disciplinaryAnswers.push(v);
      }
    },
    text(t) {
      if (inWebAddr) web += t;
    },
    close(name) {
      if (name === 'WebAddr' && cur) {
        inWebAddr = false;
        if (web.trim()) cur.raw.websites.push(web.trim());
      }
      if (name === 'Firm' && cur) {
        const answered = disciplinaryAnswers.filter((v) => v?.trim());
        cur.raw.disciplinary = answered.length === 0 ? null : answered.some((v) => /^y/i.test(v.trim())) ? 'Y' : 'N';
        ready.push(cur);
        cur = null;
      }
    },
  })) {
    yield* ready.splice(0);
  }
}
