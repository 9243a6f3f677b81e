"""The desktop application: QApplication, translations, settings, main()."""
