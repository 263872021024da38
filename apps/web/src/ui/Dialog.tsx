import type { ReactNode } from "react";
import { Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";
import { Icon } from "./Icon";

/**
 * A modal dialog (React Aria): focus moves in and stays in, Escape and a click outside close it,
 * unless `dismissable` is false (then neither does: docs/behaviour.md#widgets-and-panels).
 * `role="alertdialog"` for alerts.
 */
export function AppDialog({
  title,
  isOpen = true,
  onClose,
  dismissable = true,
  size = "medium",
  role = "dialog",
  headerActions,
  children,
  className = "",
}: {
  title: ReactNode;
  isOpen?: boolean;
  onClose?: () => void;
  dismissable?: boolean;
  size?: "small" | "medium" | "wide";
  role?: "dialog" | "alertdialog";
  /** Buttons beside the title (before the close button). */
  headerActions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <ModalOverlay
      className="dialog-overlay"
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) onClose?.();
      }}
      isDismissable={dismissable}
      isKeyboardDismissDisabled={!dismissable}
    >
      <Modal className={`dialog dialog--${size} ${className}`.trim()}>
        <Dialog role={role} className="dialog__body">
          {({ close }) => (
            <>
              <header className="dialog__header">
                <Heading slot="title" className="dialog__title">
                  {title}
                </Heading>
                {headerActions}
                {dismissable && (
                  <button type="button" className="icon-button" aria-label="Close" onClick={close}>
                    <Icon name="close" size={20} />
                  </button>
                )}
              </header>
              {children}
            </>
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
