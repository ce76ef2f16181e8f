// What a screen action shows (see use-screen-action.ts): the file chooser, the upload's progress
// and the result box under the actions, and the confirmation and show-once box.
import { useTranslation } from 'react-i18next';
import { actionText, textValues } from './action-text.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { SecretOnce } from './form/SecretOnce.tsx';
import { ActionResult, FilePicker, UploadProgress } from './list/FileAction.tsx';
import type { ActionParts } from './use-screen-action.ts';

export function ActionInline({ parts }: { parts: ActionParts }) {
  const { t } = useTranslation();
  const { result } = parts;
  return (
    <>
      <FilePicker ref={parts.picker} onFile={parts.onFile} onRefused={parts.onRefused} />
      <UploadProgress percent={parts.progress} />
      {result && <ActionResult title={t(result.action.label)} fields={result.action.result!} answer={result.answer} onClose={parts.closeResult} />}
    </>
  );
}

export function ActionDialogs({ parts }: { parts: ActionParts }) {
  const { t } = useTranslation();
  const asked = parts.confirming;
  const target = parts.confirmingTarget;
  return (
    <>
      <ConfirmDialog
        open={asked !== null}
        title={t('common.confirm.title')}
        message={asked ? actionText(t, typeof asked.confirm === 'string' ? asked.confirm : asked.method === 'DELETE' ? 'common.confirm.delete' : 'common.confirm.message', asked, target, parts.confirmingLoaded ? { load: textValues(parts.confirmingLoaded) } : {}) : ''}
        confirmLabel={asked ? actionText(t, asked.label, asked, target) : ''}
        danger={asked?.method === 'DELETE'}
        onCancel={parts.cancel}
        onConfirm={parts.confirm}
      />
      <SecretOnce secrets={parts.secrets} onClose={parts.closeSecrets} />
    </>
  );
}
