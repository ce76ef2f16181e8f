// The WhatsApp templates every business account of the demo's Meta (the Graph stand-in) has,
// approved: Meta's hello_world and the demo company's notice. Their ids are fixed so that the
// stand-in and the demo seed, which records the notice as the company's template, name the same one.
import type { TemplateCategory } from '../generated/enums.gen.ts';

export interface DemoWhatsAppTemplate { id: string; name: string; language: string; category: TemplateCategory; status: string }

export const DEMO_WHATSAPP_TEMPLATES: readonly DemoWhatsAppTemplate[] = [
  { id: '1192339204654487', name: 'hello_world', language: 'en_US', category: 'UTILITY', status: 'APPROVED' },
  { id: '1029384756102938', name: 'colibri_aviso', language: 'es_CO', category: 'UTILITY', status: 'APPROVED' },
  { id: '1029384756102939', name: 'colibri_aviso', language: 'es', category: 'UTILITY', status: 'APPROVED' },
];
