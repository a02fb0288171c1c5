import type { Document } from './document.js';
import type { IndexOptions } from './document-index.js';

/** Name of the built-in demo index. */
export const HANDBOOK_INDEX = 'handbook';

/** The handbook mixes English and German: English words and stemming, the stop words of both. */
export const HANDBOOK_INDEX_OPTIONS: IndexOptions = {
  language: 'english',
  stopWordLanguages: ['english', 'german'],
};

const t = (lang: 'en' | 'de', team: string | string[], visibility: 'public' | 'internal') => ({
  lang: [lang],
  team: typeof team === 'string' ? [team] : team,
  visibility: [visibility],
});

/**
 * The built-in demo corpus: a small company handbook of 12 documents tagged with `lang` (`en`, `de`),
 * `team` (`sales`, `support`, `eng`) and `visibility` (`public`, `internal`).
 */
export const HANDBOOK_DOCUMENTS: readonly Document[] = [
  {
    id: 'refund-policy',
    title: 'Refund policy',
    text: 'Customers can request a refund within 30 days of delivery. Refunds go back to the original payment method within 5 business days. Custom-made products cannot be refunded.',
    tags: t('en', ['sales', 'support'], 'public'),
  },
  {
    id: 'refund-policy-de',
    title: 'Rückerstattung',
    text: 'Kunden können innerhalb von 30 Tagen nach Lieferung eine Rückerstattung verlangen. Das Geld geht innerhalb von 5 Werktagen auf das ursprüngliche Zahlungsmittel zurück.',
    tags: t('de', ['sales', 'support'], 'public'),
  },
  {
    id: 'shipping-times',
    title: 'Shipping times',
    text: 'Orders placed before 2 pm ship the same business day. Standard shipping takes 2 to 4 days within the EU; express shipping takes 1 day.',
    tags: t('en', 'sales', 'public'),
  },
  {
    id: 'shipping-times-de',
    title: 'Lieferzeiten',
    text: 'Bestellungen vor 14 Uhr werden am selben Werktag versandt. Der Standardversand dauert innerhalb der EU 2 bis 4 Tage, Expressversand 1 Tag.',
    tags: t('de', 'sales', 'public'),
  },
  {
    id: 'support-hours',
    title: 'Support hours',
    text: 'The support desk answers by chat and phone Monday to Friday, 8 am to 6 pm CET. Tickets opened outside these hours are answered the next business day.',
    tags: t('en', 'support', 'public'),
  },
  {
    id: 'escalation',
    title: 'Escalating a support ticket',
    text: 'Escalate a ticket to second-level support when a customer reports data loss, a payment charged twice, or an outage affecting more than one customer. Page the on-call engineer for outages.',
    tags: t('en', 'support', 'internal'),
  },
  {
    id: 'on-call',
    title: 'On-call rotation',
    text: 'Engineers rotate on call weekly, handing over on Monday at 10 am. The on-call engineer acknowledges a page within 15 minutes and writes an incident report for every outage.',
    tags: t('en', 'eng', 'internal'),
  },
  {
    id: 'deploy-process',
    title: 'Deploying to production',
    text: 'Every change is reviewed by a second engineer and passes the test suite before it is deployed. Deploys run Monday to Thursday; no deploys on Friday afternoons.',
    tags: t('en', 'eng', 'internal'),
  },
  {
    id: 'discounts',
    title: 'Discounts and pricing',
    text: 'Sales may grant up to 10 percent discount on annual plans. Larger discounts need approval by the head of sales. Volume pricing starts at 50 seats.',
    tags: t('en', 'sales', 'internal'),
  },
  {
    id: 'password-reset',
    title: 'Resetting a password',
    text: 'Customers reset their password from the sign-in page with "Forgot password". Support never asks for a password and cannot see it.',
    tags: t('en', 'support', 'public'),
  },
  {
    id: 'data-retention',
    title: 'Data retention',
    text: 'Customer data is kept for the duration of the contract and deleted 90 days after it ends. Backups are encrypted and kept for 30 days.',
    tags: t('en', ['eng', 'support'], 'public'),
  },
  {
    id: 'urlaub',
    title: 'Urlaubsregelung',
    text: 'Mitarbeitende haben 30 Tage Urlaub im Jahr. Urlaub wird mindestens zwei Wochen vorher im Teamkalender eingetragen; im Support muss pro Schicht eine Vertretung geplant sein.',
    tags: t('de', ['sales', 'support', 'eng'], 'internal'),
  },
];
