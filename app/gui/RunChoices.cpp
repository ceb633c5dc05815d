#include "gui/RunChoices.h"

#include "hw/HardwareChoice.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>

namespace kl::app {

RunChoices::RunChoices(QObject* parent) : QObject(parent) {}

void RunChoices::populate(QMenu* menu) {
    m_hardwareActions = new QActionGroup(this);
    QStringList names{QString()};
    for (std::string_view name : sim::kBundledProfiles) {
        names << QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    }
    for (const QString& name : names) {
        const QString label =
            name.isEmpty() ? tr("Hardware: Automatic (task, else by NKI API)") : tr("Hardware: %1").arg(name);
        QAction* action = menu->addAction(label, this, [this, name] {
            setHardware(name);
            emit chosen();
        });
        action->setCheckable(true);
        action->setData(name);
        m_hardwareActions->addAction(action);
    }
    menu->addSeparator();
    // LNC 2 exists on Trainium2 and 3 only: on trn1 the run stops with a message saying so (profile max_lnc).
    m_lncActions = new QActionGroup(this);
    const std::pair<QString, QString> degrees[] = {
        {QString(), tr("Logical Cores: Automatic (task, else 1)")},
        {QStringLiteral("1"), tr("Logical Cores: 1 (one NeuronCore)")},
        {QStringLiteral("2"), tr("Logical Cores: 2 (two NeuronCores; trn2, trn3)")},
    };
    for (const auto& [degree, label] : degrees) {
        QAction* action = menu->addAction(label, this, [this, degree] {
            setLnc(degree);
            emit chosen();
        });
        action->setCheckable(true);
        action->setData(degree);
        action->setStatusTip(tr("How many physical NeuronCores the kernel's programs are spread over"));
        m_lncActions->addAction(action);
    }
    check();
}

void RunChoices::setHardware(const QString& name) {
    m_hardware = name;
    check();
}

void RunChoices::setLnc(const QString& degree) {
    m_lnc = degree;
    check();
}

void RunChoices::reset() {
    m_hardware.clear();
    m_lnc.clear();
    check();
}

void RunChoices::check() {
    for (auto [group, value] : {std::pair{m_hardwareActions, &m_hardware}, std::pair{m_lncActions, &m_lnc}}) {
        if (group == nullptr) {
            continue;
        }
        for (QAction* action : group->actions()) {
            action->setChecked(action->data().toString() == *value);
        }
    }
}

} // namespace kl::app
