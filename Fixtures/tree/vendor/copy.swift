EventLoop vendored copy, ignored by .gitignore.
