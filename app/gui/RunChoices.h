#pragma once

#include <QObject>
#include <QString>

class QActionGroup;
class QMenu;

namespace kl::app {

/// What the user chose in the Run menu for the next runs: the hardware profile and the logical NeuronCore
/// degree. "Automatic" (an empty value) leaves each to the task (task.json `hardware`, `lnc`), else to the
/// defaults (the kernel's NKI API decides the hardware; one core). Opening another task resets both.
class RunChoices : public QObject {
    Q_OBJECT
public:
    explicit RunChoices(QObject* parent = nullptr);

    /// Adds the two groups of checkable entries to `menu`.
    void populate(QMenu* menu);
    [[nodiscard]] const QString& hardware() const { return m_hardware; } ///< a bundled profile, or empty
    [[nodiscard]] const QString& lnc() const { return m_lnc; }           ///< "1", "2", or empty
    void setHardware(const QString& name);
    void setLnc(const QString& degree);
    void reset();

signals:
    /// The user picked an entry: run again with it.
    void chosen();

private:
    void check();

    QString m_hardware;
    QString m_lnc;
    QActionGroup* m_hardwareActions = nullptr;
    QActionGroup* m_lncActions = nullptr;
};

} // namespace kl::app
