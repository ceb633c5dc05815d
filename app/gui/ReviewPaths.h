#pragma once

#include <QString>

class QWidget;

namespace kl::app {

/// Where review files go. A review is the reviewer's own work, so by default it is saved in the folder the
/// reviewer last saved one in (remembered in QSettings), else in Documents, never inside the task folders it
/// reviews: those are often shared or read-only, and writing into them unasked surprised users.
QString defaultReviewFolder();
/// Asks where to save a review (title names the purpose), starting at defaultReviewFolder()/`suggestedName`;
/// adds ".klreview" when missing, remembers the folder chosen. Empty when cancelled.
QString askReviewSavePath(QWidget* parent, const QString& title, const QString& suggestedName);

} // namespace kl::app
