package dev.firstseen.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/** Reads the project's deployment files (YAML, Maven poms) for the tests of this package. */
final class DeploymentFiles {
    private DeploymentFiles() {}

    static Path root() {
        return Paths.get("").toAbsolutePath();
    }

    /** The YAML document at {@code path} (relative to the project root), aliases resolved. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> yaml(String path) throws Exception {
        Load load = new Load(LoadSettings.builder().build());
        return (Map<String, Object>) load.loadFromString(Files.readString(root().resolve(path)));
    }

    /** The value of {@code <properties><name>} in the pom at {@code path}. */
    static String pomProperty(String path, String name) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document doc = f.newDocumentBuilder().parse(root().resolve(path).toFile());
        Element props = (Element) doc.getElementsByTagName("properties").item(0);
        return props.getElementsByTagName(name).item(0).getTextContent().trim();
    }

    /** The project's own version, from the pom's top-level {@code <version>}. */
    static String projectVersion() throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document doc = f.newDocumentBuilder().parse(root().resolve("pom.xml").toFile());
        org.w3c.dom.NodeList children = doc.getDocumentElement().getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element e && e.getTagName().equals("version")) {
                return e.getTextContent().trim();
            }
        }
        throw new IllegalStateException("pom.xml has no <version>");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return o == null ? Map.of() : (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o) {
        return o == null ? List.of() : (List<Object>) o;
    }
}
